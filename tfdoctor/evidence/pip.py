"""pip's own words when it finds no distribution: what was asked and what it could see.

``Could not find a version that satisfies the requirement tensorflow==2.12.0 (from versions:
2.5.0, ..., 2.11.0)`` says which releases have a wheel for the Python and platform pip runs on;
``(from versions: none)`` says none has. Read from pip's resolver messages
(https://github.com/pypa/pip/blob/23.0/src/pip/_internal/resolution/resolvelib/factory.py).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Optional

from tfdoctor.evidence.packages import replaced_release
from tfdoctor.facts import normalize_name
from tfdoctor.modules import distribution_of
from tfdoctor.records import Record, record

_REFUSAL = re.compile(
    r"Could not find a version that satisfies the requirement "
    r"(?P<dist>[A-Za-z0-9][A-Za-z0-9._-]*)(?P<spec>[^\s(;]*)"
    # A requirement from an extra or for some platforms carries its environment marker, as
    # packaging's Requirement prints it: "jaxlib==0.4.3; extra == \"jax\"". It is not part of
    # the specifier; it ends where pip's parentheses begin ("(from ..."). A marker's own
    # parentheses group its clauses: '; (sys_platform == "darwin" and ...) and extra == "full"'.
    r"(?:\s*;(?:[^()\n]|\((?!from\s)[^()\n]{0,200}\)){0,300})?"
    # pip names where the requirement came from first: "(from -r requirements.txt (line 12))".
    r"(?:\s*\((?!from\s+versions)(?:[^()]|\([^()]*\))*\))*"
    # A paste may stop before the list, or an old pip not print it: then what pip saw is unknown.
    r"(?:\s*\(from\s+versions: ?(?P<versions>[^)]*)\))?"
)
_VERSION = re.compile(r"^\d+(?:\.\d+)*(?:(?:a|b|rc)\d+)?$")
# Where a refused requirement came from, as pip's InstallRequirement.from_path prints it: the
# requirement of the distribution that declared it, then "->" and that one's own origin
# ("(from rasa_core->-r requirements.txt (line 10))", "(from openvino-dev[onnx])"); a request
# of the user's own starts with its file's option ("(from -r requirements.txt (line 5))")
# (https://github.com/pypa/pip/blob/23.0/src/pip/_internal/req/req_install.py).
# A path (a Windows drive's "C:\\proj", a directory) is no distribution: the name ends where
# pip's requirement syntax goes on ("->", an extra, a specifier, the parenthesis). A terminal
# may wrap the line after "(from", as it wraps the version list.
_COMES_FROM = re.compile(
    r"\(from\s+(?!versions\b)(?P<dist>[A-Za-z0-9](?:[\w.-]{0,100}[A-Za-z0-9])?)"
    r"(?=->|[\[\]()=<>!~;, ])"
)


@record
class PipRefusal(Record):
    """One refusal as pip printed it (observed)."""

    dist: str
    #: The version specifier asked for (``==2.12.0``, ``>=2.16``); empty for any version.
    spec: str
    #: The versions pip could see for this Python and platform; empty for ``none``.
    versions: tuple[str, ...]
    #: Whether the log shows pip's list (``from versions: ...``); if not, ``versions`` is empty
    #: because it is unknown, not because pip saw none.
    shown: bool = True
    #: The distribution whose requirement this is, the first of pip's "(from X->Y)" chain
    #: (``rasa-core``); empty where the user asked for it (a command line, ``-r`` file).
    required_by: str = ""
    #: Whether pip wrote an empty list as nothing, ``(from versions: )``: a pip before 19.1,
    #: which writes ``none`` since (index.py, find_requirement's _format_versions;
    #: https://github.com/pypa/pip/blob/19.1/src/pip/_internal/index.py).
    unworded: bool = False

    @property
    def final_versions(self) -> tuple[str, ...]:
        """The listed versions without pre-releases."""
        return tuple(v for v in self.versions if re.fullmatch(r"\d+(?:\.\d+)*", v))

    @property
    def mistyped_release(self) -> Optional[str]:
        """The release an ``==`` pin names once the characters no version holds are taken off
        its end (``==0.21.2/``, ``==2.4.0,``: a slip in a requirements file, which pip matches
        against nothing), where pip's own list shows that release; else None."""
        if not self.spec.startswith("==") or requested_version(self.spec) is not None:
            return None
        asked = _NOT_IN_VERSION_TAIL.sub("", self.spec[2:].lstrip("="))
        return asked if asked and asked in self.versions else None


#: Characters at a pin's end that no PEP 440 version holds (its letters, digits, dots, "+",
#: "!", "-" and "_" aside): a path's slash, a list's comma, a quote or a bracket.
_NOT_IN_VERSION_TAIL = re.compile(r"[^\w.+!*-]+$")

#: Refusals kept per log.
MAX_REFUSALS = 20


# pip-tools' NoCandidateFound (pip-compile; Pipenv's lock vendors it): "Could not find a
# version that matches X==V (from ...)", then "Tried: A, B" (one version per file pip's
# finder kept for this interpreter: its tags and Requires-Python, as pip's "from versions")
# and "Skipped pre-versions: C", or "No versions found" (before 5.0: "Tried: (no version found
# at all)") (https://github.com/jazzband/pip-tools/blob/7.4.1/piptools/exceptions.py).
_PIPTOOLS = re.compile(
    r"Could not find a version that matches (?P<dist>[A-Za-z0-9][A-Za-z0-9._-]*)"
    r"(?P<spec>[^\s(;]*)(?P<origin>[^\n]*)\n"
    r"(?:[ \t]*(?:ERROR: )?Tried: (?P<tried>[^\n]*)\n?)?"
    r"(?:[ \t]*(?:ERROR: )?(?:Tried|Skipped) pre-versions: (?P<pre>[^\n]*)\n?)?"
    r"(?P<none>[ \t]*(?:ERROR: )?No versions found)?"
)


def _clashing(spec: str, versions: tuple[str, ...]) -> bool:
    """pip-tools joins every requirement on a name into one specifier (``<2.14,>=2.15``, from
    two requirements): where each of its parts admits a version it tried and none admits
    them all, those versions exist for this interpreter and the requirements exclude each
    other, which no missing wheel explains."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet  # noqa: PLC0415 - import cost
    from packaging.version import Version  # noqa: PLC0415

    parts = [part.strip() for part in spec.split(",") if part.strip()]
    if len(parts) < 2 or not versions:
        return False
    try:
        sets = [SpecifierSet(part) for part in parts]
    except InvalidSpecifier:
        return False
    tried = [Version(v) for v in versions]  # _VERSION's forms, each a valid version

    def admitted(s: SpecifierSet) -> bool:
        return any(s.contains(v, prereleases=True) for v in tried)

    return all(admitted(s) for s in sets) and not admitted(SpecifierSet(",".join(parts)))


def _piptools_refusals(text: str) -> Iterator[PipRefusal]:
    """pip-tools' refusals in ``text`` (:data:`_PIPTOOLS`), as pip's with their list; not its
    requirements that exclude each other (:func:`_clashing`)."""
    for match in _PIPTOOLS.finditer(text):
        words = [w.strip() for w in f"{match['tried'] or ''},{match['pre'] or ''}".split(",")]
        versions = tuple(dict.fromkeys(w for w in words if _VERSION.match(w)))
        if _clashing(match.group("spec"), versions):
            continue
        parent = _COMES_FROM.search(match.group("origin"))
        yield PipRefusal(
            match.group("dist").lower(),
            match.group("spec"),
            versions,
            bool(match["tried"] or match["pre"] or match["none"]),
            normalize_name(parent["dist"]) if parent is not None else "",
        )


def read_refusals(texts: Iterable[str]) -> list[PipRefusal]:
    """Every refusal with a version list in ``texts`` (a terminal may wrap the list over
    several lines: it is read up to its closing parenthesis); pip-tools' alike."""
    out: list[PipRefusal] = []
    for text in texts:
        if "Could not find a version that matches" in text:
            out.extend(_piptools_refusals(text))
        if "Could not find a version" not in text:
            continue
        for match in _REFUSAL.finditer(text):
            listed = match.group("versions")
            words = [w.strip() for w in (listed or "").split(",")]
            versions = tuple(w for w in words if _VERSION.match(w))
            dist, spec = match.group("dist").lower(), match.group("spec")
            parent = _COMES_FROM.search(match.group(0))
            out.append(
                PipRefusal(
                    dist,
                    spec,
                    versions,
                    listed is not None,
                    normalize_name(parent["dist"]) if parent is not None else "",
                    listed is not None and not listed.strip(),
                )
            )
            if len(out) >= MAX_REFUSALS:
                return out
    return out


# pip's last line of a refusal, which names the requirement as asked and no list:
# "No matching distribution found for tensorflow-text~=2.16.1 (from tf-models-official)"
# (src/pip/_internal/resolution/resolvelib/factory.py, _report_single_requirement_conflict;
# pip before 20.3: src/pip/_internal/index/package_finder.py, find_requirement).
_UNMATCHED = re.compile(
    r"No matching distribution found for (?P<dist>[A-Za-z0-9][A-Za-z0-9._-]*?)"
    r"(?P<spec>(?:[=<>!~]=?|===)[^\s(;]{1,100})?(?![\w.-])"
)


def read_unmatched(line: str) -> Optional[tuple[str, str]]:
    """The distribution (PEP 503 name) and the specifier pip's "No matching distribution
    found" line names (empty for any version), or None."""
    match = _UNMATCHED.search(line)
    if match is None:
        return None
    return normalize_name(match.group("dist")), match.group("spec") or ""


# `pip debug` (pip 19.2 and later) lists the tags the interpreter accepts, most preferred
# first: "Compatible tags: N", then one tag a line, indented (the first 10 only without
# --verbose) (src/pip/_internal/commands/debug.py, show_tags). The first tag's platform is the
# interpreter's own: win32 for a 32-bit CPython on Windows, musllinux_1_1_x86_64 on Alpine.
_TAGS_HEAD = re.compile(r"^\s*Compatible tags: \d+", re.MULTILINE)
_TAG = re.compile(
    r"^\s+(?P<interpreter>cp|py|pp|graalpy)(?P<version>\d*)-(?P<abi>\w+)-(?P<platform>[\w.]+)\s*$"
)


@record
class CompatibleTag(Record):
    """One tag ``pip debug`` lists (observed): ``cp313``, ``cp313t``, ``win_amd64``."""

    #: The interpreter and its version (``cp313``, ``pp310``).
    interpreter: str
    #: The ABI (``cp313``, ``cp313t``: free-threaded; ``pypy310_pp73``; ``abi3``, ``none``).
    abi: str
    #: The platform (``win32``, ``musllinux_1_2_x86_64``).
    platform: str


def read_first_tag(text: str) -> Optional[CompatibleTag]:
    """The first tag ``pip debug`` lists in ``text`` (the interpreter's own), or None where
    the log shows no such list; a tag of any platform (``any``) is skipped."""
    if "Compatible tags: " not in text:
        return None
    head = _TAGS_HEAD.search(text)
    if head is None:
        return None
    for line in text[head.end() :].split("\n")[1:40]:
        tag = _TAG.match(line)
        if tag is None:
            return None  # the list ended before a platform tag
        platform = tag.group("platform").split(".")[0]
        if platform != "any":
            return CompatibleTag(
                tag.group("interpreter") + tag.group("version"), tag.group("abi"), platform
            )
    return None


#: uv's example of the tags no wheel matched, the interpreter's own most preferred platform
#: tag (IncompatibleTag::Platform: "has no wheels with a matching platform tag (e.g.,
#: `win_amd64`)"; https://github.com/astral-sh/uv/blob/0.6.0/crates/uv-distribution-types/src/prioritized_distribution.rs).
_UV_PLATFORM_EXAMPLE = re.compile(
    r"matching\s+platform\s+tag\s+\(e\.g\.,\s+`?(?P<platform>[a-z][\w.]{2,60}?)`?\)"
)
#: uv's option that resolves for another platform than the interpreter's (``uv pip install
#: --python-platform x86_64-unknown-linux-musl``): its example tag is then the target's.
_UV_TARGET_PLATFORM = "--python-platform"


def read_first_platform(text: str) -> Optional[str]:
    """The platform tag of :func:`read_first_tag` (the interpreter's own), else the one uv
    gives as the example of the tags no wheel matched, or None (also where the log shows
    ``--python-platform``: uv's example is then the target's tag, not the machine's)."""
    tag = read_first_tag(text)
    if tag is not None:
        return tag.platform
    if "e.g.," not in text or _UV_TARGET_PLATFORM in text:
        return None
    example = _UV_PLATFORM_EXAMPLE.search(text)
    return example.group("platform") if example is not None else None


# The machine's architecture in its own words: uname -a's machine fields before its operating
# system ("... SMP PREEMPT aarch64 aarch64 aarch64 GNU/Linux"), uname -m's answer alone on its
# line, and platform.platform()'s ("Linux-5.10.0-arm64-aarch64-with-glibc2.28"; CPython's
# Lib/platform.py joins system, release, machine and the libc).
_ARCH_NAMES = (
    "x86_64",
    "aarch64",
    "armv6l",
    "armv7l",
    "i386",
    "i486",
    "i586",
    "i686",
    "ppc64le",
    "s390x",
)
_ARCHS = "|".join(map(re.escape, _ARCH_NAMES))
_MACHINE_FORMS = (
    # uname -a: the machine fields follow the kernel's "#build ... date" (GNU coreutils
    # src/uname.c), which prose naming an architecture beside "GNU/Linux" lacks.
    rf"#\d+[^\n]{{0,200}}?\b({_ARCHS}) GNU/Linux\b",
    rf"\bLinux-\S{{1,80}}?-({_ARCHS})-with-",  # platform.platform()
    rf"^[ \t]*({_ARCHS})[ \t]*$",  # uname -m
)
_MACHINE = re.compile("|".join(_MACHINE_FORMS), re.MULTILINE)
# CPython's Windows build string, in its banner and sys.version: "[MSC v.1941 64 bit
# (AMD64)]" is a 64-bit x86-64 interpreter, on an x86-64 machine (PC/pyconfig.h's COMPILER;
# https://github.com/python/cpython/blob/3.12/PC/pyconfig.h.in). Its 32-bit "(Intel)" and
# ARM64 forms are not read as x86-64.
_MSC_64 = re.compile(r"\[MSC v\.\d+ 64 bit \(AMD64\)\]")


# The same build string of any 64-bit Windows CPython: "64 bit (AMD64)" or "64 bit (ARM64)"
# (PC/pyconfig.h's COMPILER; the 32-bit builds print "32 bit (Intel)", "32 bit (ARM)").
_MSC_WIDE = re.compile(r"\[MSC v\.\d+ 64 bit \((?:AMD64|ARM64)\)\]")


def read_python_64bit(text: str) -> bool:
    """Whether the interpreter's banner or sys.version in ``text`` shows a 64-bit build
    (CPython's Windows build string; other platforms' banners do not state the width)."""
    return " 64 bit (" in text and _MSC_WIDE.search(text) is not None


def read_machine(text: str) -> Optional[str]:
    """The machine's architecture the first uname or platform line of ``text`` names
    (``aarch64``, ``x86_64``, ``armv7l``), else a 64-bit x86-64 Windows Python's build string
    (``x86_64``), or None."""
    # Every line _MACHINE reads names one of them: a plain search first, the expression after.
    if not any(name in text for name in _ARCH_NAMES):
        return "x86_64" if "(AMD64)]" in text and _MSC_64.search(text) else None
    found = _MACHINE.search(text)
    if found is None:
        return "x86_64" if "(AMD64)]" in text and _MSC_64.search(text) else None
    # Each of the three forms is one group: the one that matched names the machine.
    return next(filter(None, found.groups()), None)


def requested_version(spec: str) -> Optional[str]:
    """The version an ``==X`` specifier pins (``==1.15.*``, a line's releases, kept as
    written), else None."""
    # PEP 440's post- and development releases follow a dot (2.1.0.post1, 2.4.0.dev20200101).
    match = re.fullmatch(r"===?(\d+(?:\.\d+)*\w*(?:\.(?:post|dev)\d*)?(?:\.\*)?)", spec)
    return match.group(1) if match else None


# A wheel's file name carries its tags (PEP 427: name-version-python-abi-platform.whl), which
# say the interpreter and platform it installs on.
_WHEEL = re.compile(
    r"(?P<file>(?P<dist>[A-Za-z0-9_.]+)-(?P<version>\d[\w.+]*)(?:-\d\w*)?-(?P<python>[\w.]+)"
    r"-(?P<abi>[\w.]+)-(?P<platform>[\w.]+)\.whl) is not a supported wheel on this platform"
)


@record
class WheelRefusal(Record):
    """A wheel pip refused for this interpreter or platform, with its tags (observed)."""

    file: str
    dist: str
    version: str
    python: str
    abi: str
    platform: str

    @property
    def python_version(self) -> Optional[str]:
        """The CPython the wheel is for (``cp35`` -> ``3.5``), when its tag names one."""
        match = re.fullmatch(r"cp(\d)(\d+)", self.python.split(".")[0])
        return f"{match.group(1)}.{match.group(2)}" if match else None


def read_wheel_refusal(line: str) -> Optional[WheelRefusal]:
    """The wheel ``line`` says pip refused, or None."""
    match = _WHEEL.search(line)
    return _refusal(match) if match is not None else None


#: pip's refusal, with or without the file's name before it.
_REFUSED = "is not a supported wheel on this platform"
#: A wheel file named on a command line: a path or URL whose last part is a wheel's name.
_WHEEL_ARG = re.compile(
    r"(?:^|[\s/\\=])(?P<file>(?P<dist>[A-Za-z0-9_.]+)-(?P<version>\d[\w.+]*)(?:-\d\w*)?"
    r"-(?P<python>[\w.]+)-(?P<abi>[\w.]+)-(?P<platform>[\w.]+)\.whl)(?![\w.])"
)
_PIP_INSTALL = re.compile(r"\bpip(?:\d(?:\.\d+)?)?(?:\.exe)?\s+install\b")


def read_wheel_refusals(text: str) -> list[WheelRefusal]:
    """Every wheel pip refused in ``text``, in order: the file its refusal names, else (a paste
    that kept only the message) the wheel file the ``pip install`` before it named."""
    if _REFUSED not in text:
        return []
    out: list[WheelRefusal] = []
    named: Optional[WheelRefusal] = None
    for line in text.split("\n"):
        if "install" in line and _PIP_INSTALL.search(line):
            # The wheel a refusal is about: the one platform wheel the command names (a
            # universal py3-none-any wheel is never refused for its tags; several: not known).
            args = [a for a in _WHEEL_ARG.finditer(line) if a.group("platform") != "any"]
            named = _refusal(args[0]) if len(args) == 1 else None
        if _REFUSED in line:
            found = read_wheel_refusal(line) or named
            if found is not None and found not in out:
                out.append(found)
            if len(out) >= MAX_REFUSALS:
                break
    return out


def read_wheel_files_installed(text: str) -> list[tuple[str, str, str]]:
    """The platform wheels ``pip install`` installs from a file or an address the command line
    names (a wheel built elsewhere, not chosen by pip from an index): (file, distribution,
    version), in order, once each. Universal wheels (``-any.whl``) carry no native code."""
    out: list[tuple[str, str, str]] = []
    if ".whl" not in text:
        return out
    for line in text.split("\n"):
        if ".whl" not in line or "install" not in line or not _PIP_INSTALL.search(line):
            continue
        for arg in _WHEEL_ARG.finditer(line):
            found = (arg.group("file"), arg.group("dist"), arg.group("version"))
            if arg.group("platform") != "any" and found not in out:
                out.append(found)
        if len(out) >= MAX_REFUSALS:
            break
    return out


# pip 10 to 20 failing to download a requirement given as a file's address
# (src/pip/_internal/operations/prepare.py: "Could not install requirement %s because of error
# %s", the HTTPError's "404 Client Error: Not Found for url: URL"): the file's name says the
# release, Python and platform the address was written for.
_NOT_FOUND = re.compile(
    r"because of (?:HTTP )?error 404 Client Error: Not Found for url: (?P<url>\S{1,500})"
)


def read_missing_wheel(line: str) -> Optional[WheelRefusal]:
    """The wheel file whose address ``line`` says answered 404 Not Found, with its tags, or
    None (another error, or an address that names no wheel file)."""
    found = _NOT_FOUND.search(line)
    if found is None:
        return None
    wheel = _WHEEL_ARG.search(found.group("url"))
    return _refusal(wheel) if wheel is not None else None


def _refusal(match: re.Match[str]) -> WheelRefusal:
    return WheelRefusal(
        match.group("file"),
        match.group("dist"),
        match.group("version"),
        match.group("python"),
        match.group("abi"),
        match.group("platform"),
    )


# --- builds from a source archive -------------------------------------------------------------

# pip downloads a source archive only when no wheel of the chosen release fits the interpreter
# and platform (https://pip.pypa.io/en/stable/cli/pip_install/#installation-order): the name
# and version are in the archive's file name, `name-version.tar.gz` (PEP 625).
_ARCHIVE = re.compile(
    r"(?:Downloading|Using cached|Processing)\s+(?:\S*/)?"
    r"(?P<dist>[A-Za-z0-9][A-Za-z0-9_.-]*?)-(?P<version>\d+(?:\.\d+)*(?:(?:a|b|rc)\d+)?)"
    r"\.(?:tar\.gz|zip|tar\.bz2)\b"
)
# pip's words when building a wheel failed: legacy and PEP 517 builds
# (https://github.com/pypa/pip/blob/23.0/src/pip/_internal/wheel_builder.py,
# src/pip/_internal/operations/build/metadata.py, src/pip/_internal/exceptions.py), and the
# older generations': the progress line ending in "error" (pip 19 to 23: "Building wheel for X
# (setup.py) ... error", "Running setup.py install for X ... error"), and the failed command
# run in pip's build folder for X (pip 9 to 19: "Complete output from command ...
# pip-install-abc/X/setup.py", 'Command "..." failed with error code 1 in
# pip-build-abc/X/'; pip 20.3 and later add "_<hash>" to the folder). pip 19.0 to 21.2 name
# the PEP 517 metadata step "Preparing wheel metadata ... error", and pip 20.0 to 21.x report
# a failed command as "Command errored out with exit status 1:" with its "command:" and "cwd:"
# (pip's build folder for X) lines, then "ERROR: Command errored out with exit status 1:
# python setup.py egg_info Check the logs for full command output."
# (src/pip/_internal/utils/subprocess.py, make_subprocess_output_error and call_subprocess;
# https://github.com/pypa/pip/blob/20.3/src/pip/_internal/utils/subprocess.py).
_NAME = r"[A-Za-z0-9][A-Za-z0-9_.-]*"
_BUILD_DIR = r"[/\\]pip-(?:install|build)-\w+[/\\](?P<{}>" + _NAME + r")[/\\]"
#: A pip step's spinner ending in failure: on a terminal "... error", elsewhere ": finished
#: with status 'error'" (the NonInteractiveSpinner's words).
_SPINNER_ERROR = r"(?: \.\.\. error|: finished with status 'error')"
_BUILD_FAILED = re.compile(
    r"Failed building wheel for (?P<one>" + _NAME + ")"
    r"|Could not build wheels for (?P<many>[A-Za-z0-9][A-Za-z0-9_., -]*?)"
    r"(?:, which is required| which use PEP 517|\s*$)"
    # The same summary from pip 24.1 on, the names in parentheses (commands/install.py), and
    # pip 25's box of it, the names after its arrow (exceptions.py, InstallWheelBuildError,
    # "failed-wheel-build-for-install"; https://github.com/pypa/pip/blob/25.0/src/pip/
    # _internal/exceptions.py). Without names, the archive downloaded before is the one.
    r"|Failed to build installable wheels for some pyproject\.toml based projects"
    r"(?:[ \t]*\((?P<installable>[^)\n]{1,300})\)"
    r"|[ \t]*\r?\n[^\n]{0,10}?\u2570\u2500>[ \t]*(?P<arrowed>[^\n]{1,300}))?"
    # pip's summary starts its line or follows pip's own "ERROR: "; after another label
    # ("Reason: INTERNAL: Failed to build TensorRT engine", TF-TRT's fallback warning) the
    # words are that program's status, not a list of distributions.
    r"|(?:(?<=ERROR: )|(?<!\w: ))Failed to build (?P<listed>[A-Za-z0-9][A-Za-z0-9_. -]*?)\s*$"
    r"|(?P<step>Getting requirements to build wheel|Preparing metadata \(pyproject\.toml\)"
    r"|Building wheel for \S+ \(pyproject\.toml\)|python setup\.py (?:egg_info|bdist_wheel))"
    r" did not run successfully"
    # The same steps' progress lines, which a paste may keep without the box below them: pip
    # runs each hook under a spinner named for it that ends "... error" where it failed
    # (utils/subprocess.py, runner_with_spinner_message; cli/spinners.py, open_spinner;
    # https://github.com/pypa/pip/blob/23.0/src/pip/_internal/utils/subprocess.py). They name
    # no distribution: the archive downloaded before them is the one built. Where pip's output
    # is no terminal (CI, a Dockerfile's RUN, a notebook's !pip), open_spinner takes the
    # NonInteractiveSpinner, which logs the same step as "<step>: started" then "<step>:
    # finished with status 'error'" (cli/spinners.py, pip 10 on).
    r"|(?:Getting requirements to build wheel|Preparing metadata \((?:pyproject\.toml|setup\.py)\)"
    r"|Preparing wheel metadata)"
    + _SPINNER_ERROR
    + r"|(?:Building wheel for|Running setup\.py install for) (?P<progress>"
    + _NAME
    + ")"
    r"(?: \((?:setup\.py|pyproject\.toml)\))?(?:" + _SPINNER_ERROR + "| did not run successfully)"
    # pip 22's box where its `setup.py install` fallback failed too, the package after its
    # arrow (exceptions.py, LegacyInstallFailure, "legacy-install-failure";
    # https://github.com/pypa/pip/blob/22.3/src/pip/_internal/exceptions.py).
    r"|Encountered error while trying to install package\.[ \t]*\r?\n[^\n]{0,10}?\u2570\u2500>"
    r"[ \t]*(?P<legacy>" + _NAME + ")"
    r"|Complete output from command [^\n]{0,400}?" + _BUILD_DIR.format("complete") + r"setup\.py"
    r"|failed with error code \d+ in \S{0,200}?"
    + _BUILD_DIR.format("code")
    + r"|Command errored out with exit status \d+:[ \t]*\r?\n[ \t]*command: [^\n]{0,3000}\r?\n"
    r"[ \t]*cwd: \S{0,200}?[/\\]pip-(?:install|build)-\w+[/\\](?P<cwd>" + _NAME + r")"
    r"|Command errored out with exit status \d+: python setup\.py (?:egg_info|bdist_wheel)\b"
    # Poetry's note below a build backend's failure (ChefBuildError from 1.4,
    # IsolatedBuildBackendError later), the package and the release it built in its words:
    # "... not a problem with poetry but with pyyaml (5.4.1) not supporting PEP 517 builds",
    # from 1.8 "... but one of the following issues with pyyaml (5.4.1)"
    # (src/poetry/installation/executor.py, _execute_operation;
    # https://github.com/python-poetry/poetry/blob/1.8.0/src/poetry/installation/executor.py).
    r"|likely not a problem with poetry but (?:with|one of the following issues with) "
    r"(?P<poetry>" + _NAME + r") \((?P<poetry_version>\d[^)\s]{0,40})\)"
    # uv's words for a build that failed, the release pinned in backticks: "Failed to build
    # `numpy==1.19.5`" above "The build backend returned an error" (uv 0.5 on), before that
    # "Failed to download and build `numpy==1.19.5`" and "Failed to build: `numpy==1.19.5`"
    # (https://docs.astral.sh/uv/reference/troubleshooting/build-failures/). A project's own
    # source (`name @ file:///...`) names no release, and is no dependency.
    r"|Failed to (?:download and )?build:? `(?P<uv>" + _NAME + r")==(?P<uv_version>\d[^`\s]{0,40})`"
)
#: One of them is in every failure line _BUILD_FAILED reads: a block with none is skipped
#: (long literals: a short one such as "build" is in TensorFlow's own CPU notice).
_BUILD_WORDS = (
    "Failed building wheel",
    "Could not build wheels",
    "Failed to build ",
    "did not run successfully",
    " ... error",
    "Complete output from command",
    "failed with error code",
    "Command errored out with exit status",
    "Encountered error while trying to install package",
    "finished with status 'error'",
    "not a problem with poetry",
    "Failed to build `",
    "Failed to download and build `",
    "Failed to build: `",
)
# setup.py's own output while it builds an extension package, which pip shows when the build
# fails (or with -v): "creating build/lib.linux-armv7l-3.6/h5py", "copying h5py/x.py ->
# build/lib.linux-aarch64-2.7/h5py", "building 'h5py.defs' extension", and the compiler run on
# the sources in pip's build folder (distutils' build_py and build_ext commands,
# https://github.com/pypa/setuptools/blob/v60.0.0/setuptools/_distutils/command/build_ext.py).
# The package is an import name: only one the module table knows is read (a project's own
# `pip install .` builds the same way, and is no dependency without a wheel).
_BUILD_OUTPUT = re.compile(
    r"build[/\\]lib\.[\w.-]{1,60}?-(?:cpython-)?\d\.?\d+[/\\](?P<lib>[A-Za-z_]\w*)"
    # The compiler's object files, where only its failed command is left: "g++ ... -c
    # sklearn/cluster/_dbscan_inner.cpp -o build/temp.linux-x86_64-3.7/sklearn/cluster/
    # _dbscan_inner.o" (build_ext's build_temp, the package's own path below it).
    r"|-o\s+build[/\\]temp\.[\w.-]{1,60}?-(?:cpython-)?\d\.?\d+[/\\](?P<temp>[A-Za-z_]\w*)[/\\]"
    r"|building '(?P<ext>[A-Za-z_]\w*)(?:\.[\w.]+)?' extension"
    # The compiler's name ends its word: gcc, cc, arm-linux-gnueabihf-gcc, clang, g++.
    r"|\b(?:gcc|cc|clang|g\+\+)(?:-\d+)?\s[^\n]{0,400}?" + _BUILD_DIR.format("cc")
)
#: The Python a build folder is for: ``lib.linux-armv7l-3.6``, ``temp.linux-x86_64-cpython-310``.
_BUILD_PYTHON = re.compile(r"build[/\\](?:lib|temp)\.[\w.-]{1,60}?-(?:cpython-)?(\d)\.?(\d+)[/\\]")
#: The system a build folder is for (distutils names it after sysconfig.get_platform():
#: build/temp.linux-x86_64-3.8, build/lib.macosx-11.0-arm64-3.9, build\\lib.win-amd64-3.7,
#: build\\lib.win32-3.7).
_BUILD_SYSTEM = re.compile(r"\bbuild[/\\](?:lib|temp)\.(linux|macosx|win)(?=-|32-)")
_SYSTEMS = {"linux": "linux", "macosx": "macos", "win": "windows"}


def build_folder_system(text: str) -> Optional[tuple[str, str]]:
    """The operating system (``linux``, ``macos``, ``windows``) the first build folder in
    ``text`` is named for, with the folder's words, or None."""
    if "build" not in text:
        return None
    found = _BUILD_SYSTEM.search(text)
    return (_SYSTEMS[found.group(1)], found.group(0)) if found is not None else None


#: A compiler's or setup.py's own words that a build stopped.
_FAILED_WORDS = re.compile(r"\b(?:fatal )?error:|\berror: command |exit status \d|\bError \d")
#: In every line _BUILD_OUTPUT reads.
_OUTPUT_WORDS = (
    "build/lib.",
    "build\\lib.",
    "build/temp.",
    "build\\temp.",
    "' extension",
    "pip-install-",
    "pip-build-",
)
# pip's words for a build that worked after all (the progress line's "done", the summary).
_BUILT = re.compile(
    r"(?:Building wheel for|Running setup\.py install for) (?P<dist>" + _NAME + r")"
    r"(?: \((?:setup\.py|pyproject\.toml)\))?(?: \.\.\. done|: finished with status 'done')"
    r"|Successfully built (?P<built>[^\n]+)"
)


def _dist_of_folder(name: str) -> str:
    """The distribution pip's build folder is named for (pip 20.3 adds ``_<hash>``)."""
    return normalize_name(re.sub(r"_[0-9a-f]{8,}$", "", name))


_IN_BUILD_DIR = re.compile(_BUILD_DIR.format("dist"))


def build_folder_dist(path: str) -> Optional[str]:
    """The distribution whose source pip is building where ``path`` is a file in pip's build
    folder (``/tmp/pip-install-abc/foo_1f2e3d4c/setup.py`` -> ``foo``); None elsewhere."""
    found = _IN_BUILD_DIR.search(path)
    return _dist_of_folder(found.group("dist")) if found is not None else None


def _installed_after(text: str, start: int, dist: str) -> bool:
    """pip reports ``dist`` installed or built after ``start`` (its own "Successfully
    installed" list, which names each as ``name-version``; a progress line ending in "done";
    "Successfully built")."""
    for line in text[start:].splitlines():
        if line.lstrip().startswith("Successfully installed "):
            names = [normalize_name(w.rsplit("-", 1)[0]) for w in line.split()[2:]]
            if dist in names:
                return True
        built = _BUILT.search(line)
        if built is not None:
            names = [built.group("dist") or "", *(built.group("built") or "").split()]
            if dist in (normalize_name(n) for n in names if n):
                return True
    return False


@record
class SourceBuild(Record):
    """pip building a release from its source archive, and the build failing (observed)."""

    dist: str
    #: The release, from the archive's name; empty where the log shows no archive.
    version: str
    #: The line that says the build failed.
    message: str
    #: The Python setup.py built for, as its build folder names it (``build/lib.linux-
    #: aarch64-2.7`` -> ``2.7``); empty where the log shows no build folder.
    python: str = ""
    #: The system the build folder is for (``linux``, ``macos``, ``windows``), or empty.
    system: str = ""
    #: Whether the log shows the build failing (pip's or the compiler's words), not only
    #: setup.py building it (a log cut before its end).
    failed: bool = True
    #: The release of ``dist`` pip found installed and removed to put the built one in its
    #: place ("Found existing installation: llvmlite 0.39.1"); empty where the log shows none.
    replaced: str = ""
    #: Whether pip said it was going back over releases of ``dist`` ("pip is looking at
    #: multiple versions of statsmodels"): the release it built is an older one a requirement's
    #: range made it choose, not the newest.
    backtracked: bool = False
    #: The distribution whose requirement pip collected ``dist`` for ("Collecting absl-py<0.9
    #: (from tfx)" -> ``tfx``); empty where the log shows none.
    required_by: str = ""
    #: The release of ``required_by`` pip chose, where the log shows the user asking for it
    #: by name alone ("Collecting tfx", then its file "tfx-0.23.1-py3-none-any.whl"): pip
    #: picked that release itself. Empty where it was pinned, required or not shown.
    requirer_chosen: str = ""
    #: The installer whose words report the build: ``pip``, ``poetry`` (its note below the
    #: backend's error), ``uv`` (its "Failed to build `X==V`").
    installer: str = "pip"
    #: The exception and compiler error lines the build printed between its source and the
    #: next one pip took ("AttributeError: cython_sources", "x.c:4:10: fatal error: Python.h:
    #: ..."), in order; empty where the log shows none.
    errors: tuple[str, ...] = ()
    #: The range pip collected ``dist`` under ("Collecting PyYAML<6,>=3.10" -> ``<6,>=3.10``);
    #: empty where the log shows none.
    spec: str = ""
    #: The release of ``required_by`` pip chose (its file's), or empty.
    requirer_release: str = ""


def read_source_builds(texts: Iterable[str]) -> list[SourceBuild]:
    """Every failed build of a source archive in ``texts``: the distribution the failure
    names (or the last archive downloaded before it, for the PEP 517 steps that name none);
    else the package setup.py was seen building, where pip never says it built it."""
    out: list[SourceBuild] = []
    for text in texts:
        failed = any(word in text for word in _BUILD_WORDS)
        if not failed and not any(word in text for word in _OUTPUT_WORDS):
            continue
        archives: list[tuple[int, str, str]] = [
            (m.start(), normalize_name(m.group("dist")), m.group("version"))
            for m in _ARCHIVE.finditer(text)
        ]
        # A local project pip builds is the source of what follows it too, with no
        # distribution read: a failure after it is that project's, not the archive's before.
        archives = sorted(archives + [(m.start(), "", "") for m in _LOCAL_SOURCE.finditer(text)])
        found: list[tuple[int, str, str]] = []
        # The release a failure's own words name (Poetry's), before any archive's.
        releases: dict[str, str] = {}
        installers: dict[str, str] = {}
        for match in _BUILD_FAILED.finditer(text) if failed else ():
            named = (
                match.group("one")
                or match.group("many")
                or match.group("installable")
                or match.group("arrowed")
                or match.group("legacy")
                or match.group("listed")
                or match.group("poetry")
                or match.group("uv")
                or ""
            )
            dists = [normalize_name(d) for d in re.split(r"[\s,]+", named) if d]
            folder = (
                match.group("progress")
                or match.group("complete")
                or match.group("code")
                or match.group("cwd")
            )
            if folder:
                dists = [_dist_of_folder(folder)]
            if not dists:
                before = [a for a in archives if a[0] < match.start()]
                dists = [before[-1][1]] if before and before[-1][1] else []
            found.extend((match.end(), d, match.group(0).strip()) for d in dists)
            for tool in ("poetry", "uv"):
                if match.group(f"{tool}_version"):
                    releases[dists[0]] = match.group(f"{tool}_version")
                    installers[dists[0]] = tool
        if not found:
            found = _built_from_source(text)
        # Each distribution once: its first failure's words, judged from its last one (pip
        # reporting it installed after that is after every one).
        last = {dist: end for end, dist, _ in found}
        collected = read_collected(text) if "Collecting " in text else []
        for _, dist, message in found:
            if dist not in last or any(b.dist == dist for b in out):
                continue
            last_end = last.pop(dist)
            if _installed_after(text, last_end, dist):
                continue  # pip before 23.1 fell back to `setup.py install`, which worked
            version = releases.get(dist) or next(
                (v for _, d, v in reversed(archives) if d == dist), ""
            )
            folder = _BUILD_PYTHON.search(text)
            python = f"{folder.group(1)}.{folder.group(2)}" if folder else ""
            system = build_folder_system(text)
            requirer = collected_requirer(collected, dist)
            out.append(
                SourceBuild(
                    dist,
                    version,
                    message,
                    python,
                    system[0] if system else "",
                    failed or _FAILED_WORDS.search(text) is not None,
                    replaced_release(text, dist),
                    _backtracked(text, dist),
                    requirer.dist if requirer is not None else "",
                    requirer.chosen if requirer is not None else "",
                    installers.get(dist, "pip"),
                    _build_errors(text, archives, dist, last_end),
                    next((c.spec for c in collected if c.dist == dist), ""),
                    requirer.release if requirer is not None else "",
                )
            )
            if len(out) >= MAX_REFUSALS:
                return out
    return out


# pip's words when its resolver goes back over a package's releases
# (src/pip/_internal/resolution/resolvelib/reporter.py: "pip is looking at multiple versions of
# {package_name} to determine which version is compatible with other requirements"); those as
# it removes an installed release are read by evidence.packages.replaced_release.
_LOOKING_AT = re.compile(r"pip is looking at multiple versions of (?P<dist>" + _NAME + ")")


def _backtracked(text: str, dist: str) -> bool:
    """Whether pip says it went back over releases of ``dist``."""
    if "pip is looking at multiple versions of" not in text:
        return False
    return any(normalize_name(m.group("dist")) == dist for m in _LOOKING_AT.finditer(text))


# pip's progress when it takes a requirement ("Collecting absl-py<0.9,>=0.7 (from tfx)", the
# requirement and where it came from), then the file it chose for it ("Using cached
# tfx-0.23.1-py3-none-any.whl (1.7 MB)", "Downloading tfx-0.23.1-py3-none-any.whl.metadata",
# older pips the file's whole URL): src/pip/_internal/operations/prepare.py
# (``_log_preparing_link``: "Collecting %s", "Using cached %s") and network/download.py
# ("Downloading %s"; https://github.com/pypa/pip/blob/23.0/src/pip/_internal/). The file's
# name carries the release (PEP 427's wheel names, PEP 625's archives).
_COLLECTING = re.compile(
    # A CI's or Docker's prefix may lead each line ("#11 34.21 Collecting tfx"). One line each,
    # blanks only within it: linear on any log.
    r"^[^\n]{0,40}?\bCollecting (?P<dist>" + _NAME + r")(?:\[[^\]\n]{0,80}\])?"
    r"(?P<spec>[=<>!~][^\s(;]*)?(?:[ \t]*;[^(\n]{0,200})?"
    r"(?:[ \t]+\(from (?P<from>[^\n]{1,300})\))?[ \t]*\r?\n"
    r"[^\n]{0,40}?\b(?:Downloading|Using cached)[ \t]+(?:[^\s/]{0,400}/)*(?P<file>" + _NAME + r")"
    r"(?P<ext>\.whl\b|\.tar\.gz\b|\.zip\b)",
    re.MULTILINE,
)
_FILE_RELEASE = re.compile(r"^(?P<dist>[A-Za-z0-9][A-Za-z0-9_.-]*?)-(?P<version>\d[\w.+]*?)(?:-|$)")


@record
class Collected(Record):
    """One requirement pip collected and the release whose file it chose (observed)."""

    dist: str
    #: The specifier asked for (``<0.9,>=0.7``); empty for the name alone.
    spec: str
    #: The distribution whose requirement it was, the first of pip's "(from X->Y)" chain;
    #: empty where the user asked for it (a command line, a ``-r`` file).
    required_by: str
    #: The release of the file pip chose.
    version: str
    #: The platform tag of the wheel pip chose (``linux_armv7l``, ``any``; a compressed tag
    #: set as named, ``manylinux_2_17_x86_64.manylinux2014_x86_64``); empty for an archive.
    platform: str = ""


#: Collected requirements kept per log.
MAX_COLLECTED = 200


def read_collected(text: str) -> list[Collected]:
    """Every "Collecting NAME" of ``text`` followed by the file pip chose for it, in order."""
    out: list[Collected] = []
    for match in _COLLECTING.finditer(text):
        release = _FILE_RELEASE.match(match.group("file"))
        if release is None:
            continue
        dist = normalize_name(match.group("dist"))
        if normalize_name(release.group("dist")) != dist:
            continue  # a file of another distribution: not the release of this one
        origin = match.group("from") or ""
        requirer = _COMES_FROM.match(f"(from {origin})")
        by = "" if origin.startswith("-") or requirer is None else requirer.group("dist")
        out.append(
            Collected(
                dist,
                match.group("spec") or "",
                normalize_name(by),
                release.group("version"),
                # PEP 427: name-version[-build]-python-abi-platform.whl.
                match.group("file").rsplit("-", 1)[-1] if match.group("ext") == ".whl" else "",
            )
        )
    return out


@record
class Requirer(Record):
    """The distribution whose requirement pip collected another for (observed: the first of
    its "(from X->Y)" chain on that one's "Collecting" line, or on pip's refusal of it)."""

    dist: str
    #: The release of the file pip chose for it, the first the log shows (on a refusal line,
    #: the release pip names in the chain, ``(from tensorflow==2.1.0rc1)``); empty where none.
    release: str
    #: That release where the user asked for it by name alone ("Collecting tfx", then its
    #: file "tfx-0.23.1-py3-none-any.whl"): pip picked it itself. Empty where it was pinned,
    #: required by another or not shown.
    chosen: str


def collected_requirer(collected: Sequence[Collected], dist: str) -> Optional[Requirer]:
    """The distribution pip collected ``dist`` for (:attr:`Collected.required_by`), with the
    releases pip chose for it; None where the log shows ``dist`` asked for by the user (a
    command line, a ``-r`` file) or not collected."""
    wanted = normalize_name(dist)
    by = next((c.required_by for c in collected if c.dist == wanted and c.required_by), "")
    if not by:
        return None
    return Requirer(
        by,
        next((c.version for c in collected if c.dist == by), ""),
        next(
            (c.version for c in collected if c.dist == by and not c.spec and not c.required_by), ""
        ),
    )


# The release of the requirer pip names after its name: a pip before 20.3 prints the
# requirer's own requirement ("(from tensorflow==2.1.0rc1)", InstallRequirement.from_path;
# https://github.com/pypa/pip/blob/19.3.1/src/pip/_internal/req/req_install.py); pip 20.3 and
# later its name alone ("(from tensorflow)", factory.py's _report_single_requirement_conflict).
_REQUIRER_RELEASE = re.compile(r"(?:\[[^\]\n]{0,100}\])?===?(?P<version>[\w.!+]{1,60})(?=[)\s;,-])")


def refusal_requirer(line: str) -> Optional[tuple[str, Requirer]]:
    """The distribution pip's refusal line refuses (PEP 503 name) and the requirer it names
    (``No matching distribution found for X (from Y==V)``, ``Could not find a version that
    satisfies the requirement X (from Y)``), or None where the line is no refusal or the user
    asked for it (a command line, a ``-r`` file)."""
    match = _UNMATCHED.search(line) or _REFUSAL.search(line)
    if match is None:
        return None
    parent = _COMES_FROM.search(line, match.start())
    if parent is None:
        return None
    release = _REQUIRER_RELEASE.match(line, parent.end())
    return normalize_name(match.group("dist")), Requirer(
        normalize_name(parent.group("dist")),
        release.group("version") if release is not None else "",
        "",
    )


# A local project pip takes as a source: "Processing ./vendor/mylib" (a folder; an archive's
# path is _ARCHIVE's), "Obtaining file:///home/u/proj" (an editable install), as pip's
# operations/prepare.py logs them (https://github.com/pypa/pip/blob/23.0/src/pip/_internal/
# operations/prepare.py, _log_preparing_link and prepare_editable_requirement).
_LOCAL_SOURCE = re.compile(
    r"^[^\n]{0,40}?\b(?:Processing (?![^\n]*\.(?:tar\.gz|zip|tar\.bz2)\b)\S|Obtaining file:)",
    re.MULTILINE,
)
# A line a build prints for its own failure: a Python exception ("AttributeError:
# cython_sources", Poetry 1.8 leading it with "| ") or a compiler's error ("ext/_yaml.c:4:10:
# fatal error: Python.h: No such file or directory"); not pip's own "error: subprocess-...".
_BUILD_ERROR = re.compile(
    r"^[^\n]{0,40}?\b(?P<line>(?:[A-Za-z_][\w.]*(?:Error|Exception)"
    r"|[^\s:]+:\d+(?::\d+)?: (?:fatal )?error):[^\n]{0,200})",
    re.MULTILINE,
)
#: How far from its failure's words a build's own output is looked for, where no other
#: source bounds it.
_BUILD_REACH = 6000


def _build_errors(
    text: str, sources: Sequence[tuple[int, str, str]], dist: str, end: int
) -> tuple[str, ...]:
    """The error lines of the build of ``dist`` that failed at ``end``: from its source's line
    (or ``_BUILD_REACH`` before) to the next source's (or ``_BUILD_REACH`` after)."""
    start = max((at for at, d, _ in sources if at < end and d == dist), default=-1)
    if start < 0:
        start = max(0, end - _BUILD_REACH)
    stop = min((at for at, _, _ in sources if at > end), default=min(len(text), end + _BUILD_REACH))
    return tuple(m.group("line").strip() for m in _BUILD_ERROR.finditer(text, start, stop))


def _built_from_source(text: str) -> list[tuple[int, str, str]]:
    """The packages setup.py's own output shows it building (the first line of each), by the
    module table's distribution of the import name or pip's build folder."""
    out: list[tuple[int, str, str]] = []
    for match in _BUILD_OUTPUT.finditer(text):
        folder = match.group("cc")
        dist = (
            _dist_of_folder(folder)
            if folder
            else distribution_of(
                match.group("lib") or match.group("temp") or match.group("ext") or ""
            )
        )
        if dist and dist not in (d for _, d, _ in out):
            line_start = text.rfind("\n", 0, match.start()) + 1
            line_end = text.find("\n", match.end())
            line = text[line_start : line_end if line_end >= 0 else len(text)].strip()
            out.append((match.end(), dist, line[:300]))
    return out


# --- releases refused for their Requires-Python --------------------------------------------------

# pip names the releases it skipped for their Requires-Python (pip 21.2 and later,
# src/pip/_internal/index/package_finder.py: "Ignored the following versions that require a
# different python version: 2.16.1 Requires-Python >=3.9; ..."), and refuses a pinned one with
# "Package 'X' requires a different Python: 3.12.1 not in '<3.12,>=3.7'"
# (src/pip/_internal/resolution/resolvelib/factory.py, _report_requires_python_error; the
# legacy resolver alike).
_IGNORED = re.compile(
    r"Ignored the following versions that require a different python version: (?P<list>.+)"
)
_IGNORED_ONE = re.compile(r"(?P<version>\d[\w.]*) Requires-Python (?P<spec>[^;]+)")
_DIFFERENT = re.compile(
    # The quotes may be gone where a paste's markup took them (a pull request's text).
    r"Package '?(?P<dist>[A-Za-z0-9][A-Za-z0-9._-]*)'? requires a different Python: "
    r"(?P<python>\d+\.\d+(?:\.\d+)?) not in "
    r"(?:'(?P<spec>[^']+)'|(?P<bare>[<>=!~][^\s']{0,119}[\w*]))"
    # pip 9.0 to 10.0 worded it so (src/pip/utils/packaging.py, check_dist_requires_python:
    # https://github.com/pypa/pip/blob/9.0.3/pip/utils/packaging.py).
    r"|(?P<dist9>[A-Za-z0-9][A-Za-z0-9._-]*) requires Python '(?P<spec9>[^'\n]+)' but the "
    r"running Python is (?P<python9>\d+\.\d+(?:\.\d+)?)"
)

# pip's verbose log (-v) names each file it skipped for its Requires-Python, which pip before
# 21.2 prints in no summary: "Link requires a different Python (3.13.1 not in:
# '>=3.9,<3.13'): URL" (pip 19.2 and later, package_finder.py, _check_link_requires_python:
# https://github.com/pypa/pip/blob/21.1/src/pip/_internal/index/package_finder.py) and, from
# pip 9.0 to 19.1, "The package URL is incompatible with the pythonversion in use. Acceptable
# python versions are:>=3.9" (index.py, _link_package_versions, a space missing in each
# join before 10.0: https://github.com/pypa/pip/blob/9.0.3/pip/index.py,
# https://github.com/pypa/pip/blob/19.1/src/pip/_internal/index.py). The release is the
# file's, read from its name (a wheel's or a source archive's).
_LINK_PYTHON = re.compile(
    r"Link requires a different Python \((?P<python>\d+\.\d+(?:\.\d+)?) not in: "
    r"'(?P<spec>[^'\n]{1,120})'\): (?P<url>\S{1,600})"
    # The link as pip prints it: its URL, the page it came from, its Requires-Python
    # (models/link.py, Link.__str__).
    r"|The package (?P<url9>\S{1,600})(?: \(from [^)\s]{1,600}\))?(?: \(requires-python:"
    r"[^)\n]{1,120}\))? is incompatible with the python ?version in use\. "
    r"Acceptable python versions are: ?(?P<spec9>[^\s(]{1,120})"
)
#: A distribution's file name at the end of a link: ``tensorflow-2.18.0-cp312-...whl``,
#: ``tensorflow_io-0.37.1.tar.gz`` (before its #sha256= fragment).
_LINK_FILE = re.compile(
    r"/(?P<dist>[A-Za-z0-9][A-Za-z0-9._]*?)-(?P<version>\d[\w.+!]*?)"
    r"(?:-[^/#\s]*\.whl|\.tar\.gz|\.zip)(?:[#?][^\s]*)?$"
)


def _link_refusals(text: str) -> Iterator[PythonRefusal]:
    """pip's verbose refusals of files for their Requires-Python (:data:`_LINK_PYTHON`), one
    per release (a release has a file for each Python and platform), as pip's summary lists
    them: by release, in the list form."""
    seen: set[tuple[str, str]] = set()
    for match in _LINK_PYTHON.finditer(text):
        url = match.group("url") or match.group("url9")
        named = _LINK_FILE.search(url.split(" ", 1)[0])
        if named is None:
            continue
        # A verbose log names every package's files: the release is its distribution's.
        release = (normalize_name(named.group("dist")), named.group("version"))
        if release in seen:
            continue
        seen.add(release)
        yield PythonRefusal(
            "",
            release[1],
            match.group("spec") or match.group("spec9"),
            match.group("python") or "",
            of=release[0],
        )


@record
class PythonRefusal(Record):
    """A release pip refused because its Requires-Python excludes this interpreter (observed)."""

    #: The distribution when pip names it (the pinned-package form); empty in the list form,
    #: which follows the refusal of the distribution it lists.
    dist: str
    #: The release; empty where pip names only the package.
    version: str
    #: Its Requires-Python (``>=3.9``, ``<3.12,>=3.7``).
    spec: str
    #: The interpreter's version, where pip printed it.
    python: str = ""
    #: The range of Pythons a resolver judged for a project rather than one interpreter (uv's
    #: "requested Python version (>=3.9)", Poetry's "project's Python requirement"): the
    #: project's own requires-python admits Pythons the release excludes.
    project: str = ""
    #: Whether every release of ``dist`` declares the range (uv's "all versions of X").
    every: bool = False
    #: The installer whose words these are: pip, uv or Poetry.
    installer: str = "pip"
    #: The distribution of the file a verbose line refused (normalised), where the list form
    #: is read from pip's verbose lines, which name every package's files; else empty.
    of: str = ""


_NAME_RE = r"[A-Za-z0-9][A-Za-z0-9._-]*"
#: A Requires-Python as resolvers print it: ">=3.9,<3.13", ">=3.6, <3.9", "<4.0.0,>=3.12.6",
#: Poetry's unions (">=2.7,<2.8 || >=3.4") and its exact Python ("3.10.4").
_PY_SPEC = r"[<>=!~^]{0,3}\d[\d.*]*(?:(?:,\s?|\s\|\|\s)[<>=!~^]{0,3}\d[\d.*]*){0,8}"
# uv's PubGrub report of a release whose Requires-Python excludes the Python it resolves for:
# the interpreter ("the current Python version (3.8.18)", uv pip install) or the project's
# range ("the requested Python version (>=3.9)", uv lock and sync, which resolve for every
# Python the project's requires-python admits) "does not satisfy Python>=3.10 and X==V
# depends on Python>=3.10" ("all versions of X depend on" where no release admits it)
# (crates/uv-resolver/src/pubgrub/report.rs and package.rs, PubGrubPython's Display:
# https://github.com/astral-sh/uv/blob/0.6.0/crates/uv-resolver/src/pubgrub/report.rs).
# uv wraps its report, so any space may be a line break.
_UV_PYTHON = re.compile(
    r"the (?P<which>current|requested) Python version \((?P<python>[^)\n]{1,60})\)\s+"
    r"does not satisfy\s+Python\s?" + _PY_SPEC + r"\s+and\s+"
    r"(?:all\s+versions\s+of\s+`?(?P<all>" + _NAME_RE + r")`?\s+depend"
    r"|`?(?P<dist>" + _NAME_RE + r")(?:\{[^{}\n]{0,200}\})?"
    r"(?:==(?P<version>[\w.+!-]+)|[<>=!~][^\s`]{0,60})?`?\s+depends)"
    r"\s+on\s+Python\s?(?P<spec>" + _PY_SPEC + r")"
)
# Poetry's solver failure where a requirement's Python range is narrower than the project's:
# "The current project's Python requirement (>=3.8,<4.0) is not compatible with some of the
# required packages Python requirement:" then "  - X requires Python >=3.9,<3.13, so it will
# not be satisfied for Python >=3.8,<3.9" (Poetry 1.2 and later: "supported Python range";
# 1.8: "installable" for "satisfied"; before 1.1 the item ends at the range), and its
# incompatibility "X (V) requires Python >=3.9" (src/poetry/mixology/failure.py and
# incompatibility.py, PythonCause; https://github.com/python-poetry/poetry/blob/1.8.3/src/
# poetry/mixology/failure.py).
_POETRY_PROJECT = re.compile(
    r"The current project's (?:supported )?Python (?:requirement|range) "
    r"\((?P<project>[^)\n]{1,120})\) is not compatible with some of the required packages"
)
# Each is read from a name's first character, on one line: a scan from every character of
# a long token (or across a run of blank lines) would be quadratic in the text.
_POETRY_ITEM = re.compile(
    r"^[ \t\d.]*-[ \t]+(?P<dist>" + _NAME_RE + r") requires Python (?P<spec>" + _PY_SPEC + r")"
    r"(?:, so it will not be (?:satisfied|installable) for Python (?P<unmet>[^\n]{1,120}))?",
    re.MULTILINE,
)
_POETRY_RELEASE = re.compile(
    r"(?<![A-Za-z0-9._-])(?P<dist>" + _NAME_RE + r") \((?P<version>\d[\w.+!-]*)\) requires Python "
    r"(?P<spec>" + _PY_SPEC + r")"
)


def _resolver_refusals(text: str) -> Iterator[PythonRefusal]:
    """uv's and Poetry's refusals of a release for its Requires-Python (:data:`_UV_PYTHON`,
    :data:`_POETRY_PROJECT`)."""
    if "does not satisfy" in text:
        for match in _UV_PYTHON.finditer(text):
            requested = match.group("which") == "requested"
            yield PythonRefusal(
                normalize_name(match.group("all") or match.group("dist")),
                match.group("version") or "",
                match.group("spec"),
                "" if requested else match.group("python").strip(),
                match.group("python").strip() if requested else "",
                match.group("all") is not None,
                "uv",
            )
    # The pattern's literal asked first: a block's ``in`` asks its line shapes (explain's
    # _Shaped), where the pattern's search would pass over the whole of a long block.
    head = _POETRY_PROJECT.search(text) if "The current project's " in text else None
    if head is not None:
        for item in _POETRY_ITEM.finditer(text, head.end()):
            yield PythonRefusal(
                normalize_name(item.group("dist")),
                "",
                item.group("spec"),
                project=head.group("project").strip(),
                installer="Poetry",
            )
    if " requires Python " in text:
        for match in _POETRY_RELEASE.finditer(text):
            yield PythonRefusal(
                normalize_name(match.group("dist")),
                match.group("version"),
                match.group("spec"),
                project=head.group("project").strip() if head is not None else "",
                installer="Poetry",
            )


def read_python_refusals(texts: Iterable[str]) -> list[PythonRefusal]:
    """Every release pip (or uv, or Poetry) says it refused for its Requires-Python, in order."""
    out: list[PythonRefusal] = []
    for text in texts:
        out.extend(_resolver_refusals(text))
        if "Link requires a different Python (" in text or "Acceptable python versions" in text:
            out.extend(_link_refusals(text))
        if (
            "a different python version" not in text
            and "a different Python:" not in text
            and "but the running Python is" not in text
        ):
            if len(out) >= MAX_REFUSALS:
                return out[:MAX_REFUSALS]
            continue
        for match in _IGNORED.finditer(text):
            for one in _IGNORED_ONE.finditer(match.group("list")):
                out.append(PythonRefusal("", one.group("version"), one.group("spec").strip()))
        for match in _DIFFERENT.finditer(text):
            out.append(
                PythonRefusal(
                    normalize_name(match.group("dist") or match.group("dist9")),
                    "",
                    match.group("spec") or match.group("bare") or match.group("spec9"),
                    match.group("python") or match.group("python9"),
                )
            )
        if len(out) >= MAX_REFUSALS:
            return out[:MAX_REFUSALS]
    return out


@record
class AbiTagsFound(Record):
    """uv's hint naming the interpreter and the Python tags a release's wheels have, where no
    wheel fits (observed): ``You require CPython 3.13 (`cp313`), but we only found wheels for
    `tensorflow` (v2.19.0) with the following Python ABI tags: `cp39`, `cp310`, ...``."""

    dist: str
    #: The release uv looked at (``2.19.0``).
    version: str
    #: The interpreter's version (``3.13``).
    python: str
    #: The Python tags of the release's wheels, as uv lists them (``cp39``, ``cp310``).
    tags: tuple[str, ...]
    #: The interpreter's implementation as uv names it (``CPython``, ``PyPy``, ``GraalPy``)
    #: and its build's variant (``t``: free-threaded), read from uv's words ("free-threaded
    #: CPython 3.13", uv-platform-tags' abi_tag.rs since 0.9.26) or its ABI tag (``cp313t``).
    implementation: str = "CPython"
    variant: str = ""


#: uv's hints where a release has wheels, none for this interpreter's tags (PubGrubHint's
#: AbiTags and LanguageTags in astral-sh/uv's crates/uv-resolver/src/pubgrub/report.rs;
#: astral-sh/uv#5284), in its words since 0.4 and in the earlier ones ("You're using CPython
#: 3.12 (`cp312`), but `tensorflow-cpu` (v2.15.0) only has wheels with the following Python
#: ABI tags: ..."). A terminal wraps them: the gaps between their words are any whitespace.
_TAGS = r"Python (?:ABI |implementation )?tags?:\s*(?P<tags>`?\w+`?(?:,\s*`?\w+`?){0,40})"
_ABI_HINTS = (
    re.compile(
        r"You require (?P<free>free-threaded\s+)?(?P<impl>CPython|PyPy|GraalPy)\s+"
        r"(?P<python>\d+\.\d+)\s+\(`?(?P<tag>\w+)`?\),\s+but we only "
        r"found\s+wheels for\s+`?(?P<dist>[\w.-]+)`?\s+\(v(?P<version>[\w.+!-]+)\)\s+with the "
        r"following\s+" + _TAGS
    ),
    re.compile(
        r"You're using (?P<free>free-threaded\s+)?(?P<impl>CPython|PyPy|GraalPy)\s+"
        r"(?P<python>\d+\.\d+)\s+\(`?(?P<tag>\w+)`?\),\s+but\s+"
        r"`?(?P<dist>[\w.-]+)`?\s+\(v(?P<version>[\w.+!-]+)\)\s+only has wheels with the\s+"
        r"following\s+" + _TAGS
    ),
)


@record
class PlatformsFound(Record):
    """uv's hint naming the platform tags a release's wheels have, where none fits this
    platform (observed): ``Wheels are available for `tensorflow` (v2.16.1) on the following
    platforms: `manylinux_2_17_aarch64`, `manylinux_2_17_x86_64` ...``."""

    dist: str
    #: The release uv looked at (``2.16.1``).
    version: str
    #: The platform tags of the release's wheels, as uv lists them.
    platforms: tuple[str, ...]


#: uv's hint where a release has wheels, none for this platform (PubGrubHint::PlatformTags in
#: astral-sh/uv's crates/uv-resolver/src/pubgrub/report.rs). A terminal wraps it: the gaps
#: between its words are any whitespace.
_PLATFORM_HINT = re.compile(
    r"Wheels are available for\s+`?(?P<dist>[\w.-]+)`?\s+\(v(?P<version>[\w.+!-]+)\)\s+on "
    r"the\s+following\s+platforms?:\s*(?P<tags>`?\w+`?(?:,\s*`?\w+`?){0,40})"
)


def read_platform_hints(texts: Iterable[str]) -> list[PlatformsFound]:
    """Every hint uv printed naming the platform tags a release's wheels have, in order."""
    out: list[PlatformsFound] = []
    for text in texts:
        if "Wheels are available for" not in text:
            continue
        for match in _PLATFORM_HINT.finditer(text):
            tags = tuple(dict.fromkeys(re.findall(r"\w+", match.group("tags"))))
            out.append(
                PlatformsFound(normalize_name(match.group("dist")), match.group("version"), tags)
            )
            if len(out) >= MAX_REFUSALS:
                return out
    return out


#: A free-threaded CPython's ABI tag (``cp313t``), which uv names before 0.9.26 as it does the
#: default build's ("CPython 3.13 (`cp313t`)").
_FREE_THREADED_TAG = re.compile(r"cp3\d+t")


@record
class VersionsSetAside(Record):
    """uv's hint that releases of a requirement exist but were not considered (observed), so
    its "there is no version of X==V" does not say the release is unpublished: ``index``
    (found on a first index without the version, the others not searched), ``exclude-newer``
    (uploaded after the cutoff), ``pre-release`` (only pre-releases match, not enabled)."""

    dist: str
    reason: str
    #: The index uv found the package on (``index``), else empty.
    index: str = ""


#: uv's hints for versions it did not consider (PubGrubHint::UncheckedIndex, ExcludeNewer,
#: PrereleaseAvailable in crates/uv-resolver/src/pubgrub/report.rs). A terminal wraps them.
_SET_ASIDE_HINTS = (
    (
        "index",
        re.compile(
            r"`(?P<dist>[\w.-]+)`\s+was\s+found\s+on\s+(?P<index>\S{1,300}?),?\s+but\s+not\s+at\s+"
            r"the\s+requested\s+version"
        ),
    ),
    (
        "exclude-newer",
        re.compile(
            r"`(?P<dist>[\w.-]+)`\s+was\s+filtered\s+by\s+(?:the\s+index-specific\s+)?"
            r"`exclude-newer"
        ),
    ),
    (
        "pre-release",
        re.compile(
            r"Pre-releases\s+are\s+available\s+for\s+`?(?P<dist>[\w.-]+)`?\s+in\s+the\s+"
            r"requested\s+range"
        ),
    ),
)


def read_set_aside_hints(texts: Iterable[str]) -> list[VersionsSetAside]:
    """Every hint uv printed that a requirement's releases exist but were set aside."""
    out: list[VersionsSetAside] = []
    for text in texts:
        if "hint" not in text:
            continue
        for reason, pattern in _SET_ASIDE_HINTS:
            for match in pattern.finditer(text):
                index = match.groupdict().get("index") or ""
                out.append(
                    VersionsSetAside(normalize_name(match["dist"]), reason, index.rstrip(",."))
                )
                if len(out) >= MAX_REFUSALS:
                    return out
    return out


def read_abi_hints(texts: Iterable[str]) -> list[AbiTagsFound]:
    """Every hint uv printed naming the Python tags a release's wheels have, in order."""
    out: list[AbiTagsFound] = []
    for text in texts:
        if "but we only found" not in text and "only has wheels with" not in text:
            continue
        for match in (m for pattern in _ABI_HINTS for m in pattern.finditer(text)):
            tags = tuple(dict.fromkeys(re.findall(r"\w+", match.group("tags"))))
            out.append(
                AbiTagsFound(
                    normalize_name(match.group("dist")),
                    match.group("version"),
                    match.group("python"),
                    tags,
                    match.group("impl"),
                    "t" if match["free"] or _FREE_THREADED_TAG.fullmatch(match["tag"]) else "",
                )
            )
            if len(out) >= MAX_REFUSALS:
                return out
    return out


@record
class LockedInstall(Record):
    """What a resolver that locks for every platform reported installing (observed): uv's
    project commands and Poetry read one wheel's metadata for all platforms."""

    #: ``uv`` or ``poetry``.
    installer: str
    #: The distributions installed, PEP 503 names, with their versions, in the order shown.
    installed: tuple[tuple[str, str], ...]


#: uv's list of what it installed: one `` + name==version`` line each (its install report,
#: ChangeEventKind::Added: `" {} {}{}"` with "+", the name and the installed version, which
#: prints as ``==X``; https://github.com/astral-sh/uv/tree/main/crates/uv/src/commands).
_UV_ADDED = re.compile(
    rf"^[ \t]*\+ (?P<dist>{_NAME})==(?P<version>\d[\w.+!]{{0,40}})[ \t]*\r?$", re.M
)
#: A uv command that resolves a project's lock, for every platform at once (``uv add``,
#: ``uv sync``, ``uv lock``, ``uv run``; https://docs.astral.sh/uv/concepts/resolution/
#: #universal-resolution). ``uv pip install`` resolves for the running interpreter only.
_UV_PROJECT = re.compile(r"(?:^|[\s$%>])uv (?:add|sync|lock|run)\b", re.M)
#: Poetry's line for each package it installs (src/poetry/installation/executor.py: "  - Installing
#: <c1>{}</c1> (<c2>{}</c2>)" with the name and version, a bullet in place of "-" since 1.2;
#: https://github.com/python-poetry/poetry/blob/1.8.0/src/poetry/installation/executor.py).
_POETRY_INSTALLING = re.compile(
    rf"^[ \t]*[-•] Installing (?P<dist>{_NAME}) \((?P<version>\d[\w.+!]{{0,40}})\)", re.M
)


def read_locked_installs(texts: Iterable[str]) -> list[LockedInstall]:
    """Each list of installed distributions a uv project command or Poetry printed in
    ``texts``, in order: the installs whose resolution was made for every platform."""
    out: list[LockedInstall] = []
    for text in texts:
        if " + " in text and "uv " in text and _UV_PROJECT.search(text):
            added = tuple(
                (normalize_name(m.group("dist")), m.group("version"))
                for m in _UV_ADDED.finditer(text)
            )
            if added:
                out.append(LockedInstall("uv", added))
        if "Installing " in text:
            poetry = tuple(
                (normalize_name(m.group("dist")), m.group("version"))
                for m in _POETRY_INSTALLING.finditer(text)
            )
            if poetry:
                out.append(LockedInstall("poetry", poetry))
    return out


# --- pip's own lines ---------------------------------------------------------------------------


class PipKind(enum.Enum):
    """The kinds of line pip prints as it collects, installs, removes and refuses."""

    PROCESSING = "processing"
    COLLECTING = "collecting"
    DOWNLOADING = "downloading"
    USING_CACHED = "using-cached"
    SATISFIED = "satisfied"
    UP_TO_DATE = "up-to-date"
    INSTALLING = "installing"
    ATTEMPTING_UNINSTALL = "attempting-uninstall"
    FOUND_EXISTING = "found-existing"
    UNINSTALLING = "uninstalling"
    UNINSTALLED = "uninstalled"
    INSTALLED = "installed"
    RESOLVER_NOTE = "resolver-note"
    CONFLICT = "conflict"
    CANNOT_INSTALL = "cannot-install"
    RESOLUTION_IMPOSSIBLE = "resolution-impossible"
    NO_VERSION = "no-version"
    NO_MATCH = "no-match"
    UNSUPPORTED_WHEEL = "unsupported-wheel"


#: pip's words that open each kind of line, in pip's own source (pypa/pip, tag 23.0, under
#: src/pip/_internal/; older forms where they differ). Each kind's first row is its words now.
_OPENINGS: tuple[tuple[PipKind, str], ...] = (
    # operations/prepare.py, _log_preparing_link: "Processing %s" (a local file or folder),
    # else "Collecting %s".
    (PipKind.PROCESSING, "Processing "),
    (PipKind.COLLECTING, "Collecting "),
    # network/download.py, _prepare_download: "Downloading %s", "Using cached %s".
    (PipKind.DOWNLOADING, "Downloading "),
    (PipKind.USING_CACHED, "Using cached "),
    # operations/prepare.py, prepare_installed_requirement: "Requirement %s: %s (%s)" with
    # "already satisfied" (pip before 10: "Requirement already satisfied (use --upgrade to
    # upgrade): %s"); the legacy resolver's "already up-to-date" under --upgrade (20.2:
    # resolution/legacy/resolver.py, _check_skip_installed).
    (PipKind.SATISFIED, "Requirement already satisfied"),
    (PipKind.UP_TO_DATE, "Requirement already up-to-date"),
    # req/__init__.py, install_given_reqs: "Installing collected packages: %s", then
    # "Attempting uninstall: %s" for each it replaces.
    (PipKind.INSTALLING, "Installing collected packages"),
    (PipKind.ATTEMPTING_UNINSTALL, "Attempting uninstall"),
    # req/req_install.py, uninstall: "Found existing installation: %s".
    (PipKind.FOUND_EXISTING, "Found existing installation: "),
    # req/req_uninstall.py, UninstallPathSet.remove: "Uninstalling %s:", "Successfully
    # uninstalled %s".
    (PipKind.UNINSTALLING, "Uninstalling "),
    (PipKind.UNINSTALLED, "Successfully uninstalled "),
    # commands/install.py, run: "Successfully installed %s".
    (PipKind.INSTALLED, "Successfully installed "),
    # commands/install.py, _warn_about_conflicts: the head of its list of conflicts, since
    # 20.3 and, with the legacy resolver, 20.2's.
    (PipKind.RESOLVER_NOTE, "pip's dependency resolver"),
    (PipKind.RESOLVER_NOTE, "pip's legacy dependency resolver"),
    # resolution/resolvelib/factory.py, get_installation_error: "Cannot install %s because
    # these package versions have conflicting dependencies.", "ResolutionImpossible: for help
    # visit ..."; _report_single_requirement_conflict: "Could not find a version that
    # satisfies the requirement %s (from versions: %s)", "No matching distribution found for
    # %s" (pip before 20.3: index/package_finder.py, find_requirement).
    (PipKind.CANNOT_INSTALL, "Cannot install "),
    (PipKind.RESOLUTION_IMPOSSIBLE, "ResolutionImpossible"),
    (PipKind.NO_VERSION, "Could not find a version that satisfies the requirement "),
    (PipKind.NO_MATCH, "No matching distribution found for "),
)
#: The level pip writes before a warning's or an error's message since 19.1 (utils/logging.py,
#: IndentingFormatter.get_message_start; https://github.com/pypa/pip/blob/19.1/NEWS.rst).
_LEVELS = ("ERROR: ", "WARNING: ")
#: pip's conflict notices, which open with the distribution that requires: "X 1.0 requires
#: Y<2, but you have Y 2.3 which is incompatible." (commands/install.py, _warn_about_conflicts;
#: "but you'll have" in 20.2, "has requirement" before), "X 1.0 requires Y, which is not
#: installed." and pip check's "X 1.0 has requirement Y<2, but you have Y 2.3."
#: (commands/check.py). A terminal may wrap them: any of their parts marks the line.
_CONFLICT = re.compile(
    r"but you have|which is incompatible|which is not installed"
    r"|(?:requires|has requirement) [\w.-]+[<>=!~]"
)


@record
class PipLine(Record):
    """One line pip printed (observed): its kind and what it says."""

    kind: PipKind
    #: ``ERROR`` or ``WARNING`` where pip wrote its level before the message (19.1 and later);
    #: empty where none.
    level: str
    #: pip's words that open the line (``Successfully installed ``); empty for the kinds whose
    #: words are not at the start (a conflict, a refused wheel).
    words: str
    #: What follows them: the requirements, the file, the list (the whole message where
    #: ``words`` is empty).
    rest: str


def pip_words(kind: PipKind) -> str:
    """pip's words that open a line of ``kind`` (``Collecting ``); empty for the kinds whose
    words are not at the start."""
    return next((words for k, words in _OPENINGS if k is kind), "")


def read_pip_line(line: str) -> Optional[PipLine]:
    """The kind of ``line`` where pip printed it, with what it says, or None (not pip's)."""
    # pip indents the steps of a step (utils/logging.py, indent_log).
    said = line.lstrip(" \t")
    level = next((start for start in _LEVELS if said.startswith(start)), "")
    said = said[len(level) :]
    for kind, words in _OPENINGS:
        if said.startswith(words):
            return PipLine(kind, level[:-2], words, said[len(words) :])
    if _REFUSED in said:
        return PipLine(PipKind.UNSUPPORTED_WHEEL, level[:-2], "", said)
    if _CONFLICT.search(line) is not None:
        return PipLine(PipKind.CONFLICT, level[:-2], "", said)
    return None


def read_pip_lines(text: str, *kinds: PipKind) -> Iterator[PipLine]:
    """The lines of ``text`` pip printed of any of ``kinds`` (kinds whose words open the line),
    in order."""
    openings = [words for kind, words in _OPENINGS if kind in kinds and words in text]
    if not openings:
        return
    for line in text.split("\n"):
        if any(words in line for words in openings):
            said = read_pip_line(line)
            if said is not None and said.kind in kinds:
                yield said
