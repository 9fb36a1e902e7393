"""Exact pins for a target from pip's own resolver (``tfdoctor pin --resolve``).

Target mode knows, offline, the ranges the chosen TensorFlow wheel declares; two installs of
such a file can differ. With ``--resolve`` the target's requirements go to pip's resolver:
``pip install --dry-run --ignore-installed --report FILE --only-binary=:all:
--python-version X.Y --implementation cp --platform TAG ...`` resolves them against the package
index as pip would on the target, without installing anything, and its installation report
(https://pip.pypa.io/en/stable/reference/installation-report/) names every distribution it
would install, at one version, with the file it chose and that file's digest. Each becomes an
``==`` pin.

Two things pip does not do for a target, and what is done about them:

* pip evaluates environment markers (``python_version < "3.12"``, ``sys_platform ==
  "win32"``) for the interpreter running it, whatever ``--python-version`` and ``--platform``
  say (https://github.com/pypa/pip/issues/11664). pip runs here in a child that first
  replaces its marker environment with the target's (as pex does,
  https://github.com/pex-tool/pex/issues/1366), so TensorFlow's requirements for another
  Python or platform are the ones pip follows.
* pip reads its configuration files and ``PIP_*`` variables (an index, a constraints file):
  the child runs with ``--isolated`` and ``PIP_CONFIG_FILE`` set to the null device, so the
  file depends on the command line only. The index is ``--index-url`` (PyPI by default).

Wheels: ``--platform`` takes the tags pip compares wheel names with. A target names an
operating system and an architecture, not a glibc or macOS version, so the tags go up to
:data:`GLIBC` (or the TensorFlow wheel's own glibc floor, if newer) and :data:`MACOS`; the
header says so.

This module imports nothing of the machine: the child is started through the runner the
caller passes (:func:`tfdoctor.probes._run.run_command` in the CLI).
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import sys
import tempfile
import urllib.parse
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Callable, Optional, Protocol

from tfdoctor.compat import Target, marker_environment, python_minor
from tfdoctor.facts import PackageFacts
from tfdoctor.matrix import Matrix, version_key
from tfdoctor.pin import PinEntry, PinError, Pinset, _requirements_reader, _walk
from tfdoctor.pipreport import ReportError, Resolved, load_report, parse_report
from tfdoctor.records import Record, record

#: The index pip reads unless ``--index-url`` names another.
PYPI = "https://pypi.org/simple"
#: ``pip install --dry-run --report`` came in pip 22.2
#: (https://pip.pypa.io/en/stable/news/#v22-2).
MIN_PIP = (22, 2)
#: Seconds pip may take for the whole resolution.
TIMEOUT = 600.0
#: Seconds per network request, and retries of a failed one (pip's defaults are 15 and 5).
REQUEST_TIMEOUT = 30
RETRIES = 2
#: The newest glibc whose manylinux wheels a Linux target accepts: 2.28 (manylinux_2_28, the
#: glibc of RHEL 8 and Debian 10, and the cibuildwheel default), or the TensorFlow wheel's
#: own floor if newer. The file installs on every Linux with at least this glibc.
GLIBC = "2.28"
#: The newest macOS whose wheels a macOS target accepts (pip adds every older one).
MACOS = "14.0"

#: A platform key -> (``platform.system()``, ``platform.machine()``) there.
_PLATFORM_ENV: Mapping[str, tuple[str, str]] = {
    "linux-x86_64": ("Linux", "x86_64"),
    "linux-aarch64": ("Linux", "aarch64"),
    "macos-x86_64": ("Darwin", "x86_64"),
    "macos-arm64": ("Darwin", "arm64"),
    "windows-x86_64": ("Windows", "AMD64"),
}
#: The oldest manylinux glibc per architecture, and the legacy aliases of PEP 513/571/599.
_MANYLINUX_FLOOR = {"x86_64": 5, "aarch64": 17}
_MANYLINUX_ALIASES = {5: "manylinux1", 12: "manylinux2010", 17: "manylinux2014"}

#: Exit statuses of the child before pip runs.
_NO_PIP = 97
_OLD_PIP = 98

# The child: check pip, give pip's markers the target's environment, run pip's CLI.
# argv: [marker environment as JSON, pip's arguments...].
_CHILD = r"""
import json, re, runpy, sys
try:
    import pip
    from pip._vendor.packaging import markers
except ImportError as exc:
    sys.stderr.write("no pip: %s\n" % exc)
    sys.exit(97)
found = tuple(int(p) for p in re.findall(r"\d+", pip.__version__)[:2])
if found < (22, 2):
    sys.stderr.write("pip %s\n" % pip.__version__)
    sys.exit(98)
target = json.loads(sys.argv[1])
markers.default_environment = lambda: dict(target)
sys.argv = ["pip"] + sys.argv[2:]
runpy.run_module("pip", run_name="__main__", alter_sys=True)
"""


class ResolveError(RuntimeError):
    """pip could not be run, or not reach the index, or answered nonsense (exit code 3)."""


class _Finished(Protocol):
    """What :func:`tfdoctor.probes._run.run_command` returns, as far as this module reads it."""

    @property
    def returncode(self) -> Optional[int]: ...

    @property
    def stdout(self) -> str: ...

    @property
    def stderr(self) -> str: ...

    @property
    def timed_out(self) -> bool: ...

    @property
    def start_error(self) -> Optional[str]: ...


#: ``run(argv, env, timeout)``: a child's result.
Run = Callable[[Sequence[str], Optional[Mapping[str, str]], float], _Finished]


@record
class WheelTarget(Record):
    """What pip is told of the target: its Python, its platform tags, its markers."""

    #: ``3.12``.
    python: str
    #: A platform key (``linux-x86_64``).
    platform: str
    #: ``--platform`` values, most specific first.
    tags: tuple[str, ...]
    #: PEP 508 marker variables of the target.
    markers: Mapping[str, str]

    @property
    def describe(self) -> str:
        """``CPython 3.12 wheels for manylinux_2_28_x86_64 and older``, for the header."""
        oldest = " and older" if len(self.tags) > 1 or self.tags[0].startswith("macosx") else ""
        return f"CPython {self.python} wheels for {self.tags[0]}{oldest}"


def platform_tags(platform: str, glibc: str = GLIBC, macos: str = MACOS) -> tuple[str, ...]:
    """The ``--platform`` tags of a platform key, newest first (pip adds older macOS ones)."""
    os_name, _, arch = platform.partition("-")
    if os_name == "windows":
        return ("win_amd64",)
    if os_name == "macos":
        major, _, minor = macos.partition(".")
        return (f"macosx_{major}_{minor or 0}_{arch}",)
    newest = version_key(glibc)[1] if len(version_key(glibc)) > 1 else 17
    tags: list[str] = []
    for minor_glibc in range(newest, _MANYLINUX_FLOOR.get(arch, 17) - 1, -1):
        tags.append(f"manylinux_2_{minor_glibc}_{arch}")
        alias = _MANYLINUX_ALIASES.get(minor_glibc)
        if alias is not None and (arch == "x86_64" or minor_glibc == 17):
            tags.append(f"{alias}_{arch}")
    return tuple(tags)


def target_markers(python: str, platform: str) -> dict[str, str]:
    """PEP 508 marker variables of CPython ``python`` (``3.12``) on a platform key."""
    system, machine = _PLATFORM_ENV.get(platform, _PLATFORM_ENV["linux-x86_64"])
    env = marker_environment(
        python_version=f"{python}.0",
        implementation="CPython",
        system=system,
        machine=machine,
        release="",
    )
    env.pop("extra", None)
    env["platform_version"] = ""
    return env


def wheel_target(matrix: Matrix, pinset: Pinset, target: Target) -> WheelTarget:
    """The target pip resolves for; :class:`ResolveError` without a target Python."""
    python = python_minor(target.python) if target.python else None
    if python is None:
        raise ResolveError("--resolve needs the target's Python version: give --python-version X.Y")
    plat = target.platform or "linux-x86_64"
    glibc = GLIBC
    # TensorFlow is asked for first; the installed companions are asked for beside it.
    first = pinset.requested[0] if pinset.requested else ""
    named = re.split(r"[\[<>=!~;\s]", first, maxsplit=1)[0]
    root = pinset.entry(named) if named else next((e for e in pinset.entries if not e.via), None)
    line = matrix.line_for(root.exact_version or "") if root is not None else None
    if line is not None and line.glibc_min and version_key(line.glibc_min) > version_key(glibc):
        glibc = line.glibc_min
    return WheelTarget(python, plat, platform_tags(plat, glibc), target_markers(python, plat))


def pip_arguments(
    requirements: Sequence[str], wheels: WheelTarget, index_url: str, report: str, scratch: str
) -> list[str]:
    """The ``pip install`` arguments of a dry run for ``wheels`` (``--target`` for pip < 23.1,
    which wants one with ``--platform`` even in a dry run; nothing is written there)."""
    args = [
        "install",
        "--dry-run",
        "--ignore-installed",
        "--quiet",
        "--isolated",
        "--disable-pip-version-check",
        "--no-input",
        "--progress-bar",
        "off",
        "--report",
        report,
        "--target",
        scratch,
        "--only-binary=:all:",
        "--implementation",
        "cp",
        "--python-version",
        wheels.python,
        "--index-url",
        index_url,
        "--timeout",
        str(REQUEST_TIMEOUT),
        "--retries",
        str(RETRIES),
    ]
    for tag in wheels.tags:
        args.extend(("--platform", tag))
    return [*args, *requirements]


def child_environment(base: Mapping[str, str]) -> dict[str, str]:
    """``base`` without pip's own variables, and with no configuration file read."""
    env = {k: v for k, v in base.items() if not k.upper().startswith("PIP_")}
    env["PIP_CONFIG_FILE"] = os.devnull
    return env


# --- pip's answer -----------------------------------------------------------------------------

# pip's words (and urllib3's) when the index cannot be reached; pip warns of each retry.
_UNREACHABLE = re.compile(
    r"Retrying \(|NewConnectionError|ConnectTimeout|ReadTimeout|ProxyError|SSLError"
    r"|Could not fetch URL|Failed to establish a new connection|Max retries exceeded"
)
_REASON = re.compile(r"\[Errno [-\d]+\][^'\")]*|timed out|certificate verify failed")


def _error_lines(stderr: str) -> list[str]:
    """pip's ``ERROR:`` lines, without the prefix."""
    return [
        line[len("ERROR:") :].strip() for line in stderr.splitlines() if line.startswith("ERROR:")
    ]


def _unreachable(stderr: str) -> Optional[str]:
    """Why the index could not be reached (``[Errno 111] Connection refused``); None if it
    was."""
    for line in stderr.splitlines():
        if _UNREACHABLE.search(line) is None:
            continue
        reason = _REASON.search(line)
        if reason is not None:
            return reason.group(0).strip()
        return re.sub(r"^(WARNING|ERROR):\s*", "", line.strip())[:200]
    return None


def run_resolver(
    requirements: Sequence[str],
    wheels: WheelTarget,
    *,
    index_url: str = PYPI,
    run: Run,
    python: str = sys.executable,
    env: Optional[Mapping[str, str]] = None,
    timeout: float = TIMEOUT,
) -> dict[str, Any]:
    """pip's installation report of a dry run for ``wheels``.

    Raises :class:`ResolveError` when pip cannot run or cannot reach the index, and
    :class:`PinError` when it finds no set of wheels that installs on the target.
    """
    with tempfile.TemporaryDirectory(prefix="tfdoctor-resolve-") as scratch:
        report_path = str(Path(scratch) / "report.json")
        argv = [
            python,
            "-c",
            _CHILD,
            json.dumps(dict(wheels.markers), sort_keys=True),
            *pip_arguments(
                requirements, wheels, index_url, report_path, str(Path(scratch) / "target")
            ),
        ]
        result = run(argv, child_environment(os.environ if env is None else env), timeout)
        text = None
        if result.returncode == 0:
            try:
                text = Path(report_path).read_text(encoding="utf-8")
            except OSError as exc:
                raise ResolveError(f"pip wrote no installation report ({exc})") from None
    if result.start_error is not None:
        raise ResolveError(f"cannot run {python}: {result.start_error}")
    if result.timed_out:
        raise ResolveError(f"pip did not finish resolving within {timeout:.0f} s")
    if result.returncode == _NO_PIP:
        raise ResolveError(
            f"pip is not installed for {python}, which runs the resolver "
            f"(`{python} -m ensurepip`); without --resolve the file pins ranges"
        )
    if result.returncode == _OLD_PIP:
        found = result.stderr.strip().rpartition(" ")[2]
        raise ResolveError(
            f"--resolve needs pip >= {'.'.join(map(str, MIN_PIP))} (install --dry-run "
            f"--report); {python} has pip {found}: `{python} -m pip install -U pip`"
        )
    if result.returncode != 0 or text is None:
        unreachable = _unreachable(result.stderr)
        if unreachable is not None:
            raise ResolveError(
                f"cannot reach the package index {display_url(index_url)} ({unreachable}); without "
                "--resolve the file pins ranges, offline"
            )
        errors = _error_lines(result.stderr)
        if errors:
            # pip's first error says what has no wheel; the later ones, what it tried.
            raise PinError(
                f"pip finds nothing on {display_url(index_url)} that installs "
                f"{' '.join(requirements)} "
                f"for {wheels.describe}: {errors[0]}"
            )
        tail = result.stderr.strip().splitlines()[-1:] or [f"exit status {result.returncode}"]
        raise ResolveError(f"pip failed: {tail[0]}")
    try:
        return load_report(text)
    except ReportError as exc:
        raise ResolveError(str(exc)) from None


def resolved_pinset(
    ranges: Pinset,
    resolved: Sequence[Resolved],
    wheels: WheelTarget,
    described: str,
    *,
    hashes: bool = False,
) -> Pinset:
    """``ranges`` (target mode) pinned exactly to what pip chose, each with why it is there.

    ``via`` follows ``Requires-Dist`` from the roots through the resolved metadata, with the
    target's markers; entries the target pins by hand (the ``and-cuda`` wheels when the extra
    is dropped) keep their reason. Extras and markers of the target's own lines stay. With
    ``hashes``, each entry carries the digest of the file pip chose (``--hashes`` adds the
    release's other files from the index).
    """
    installed = {r.name: PackageFacts(r.name, r.version, "", r.requires) for r in resolved}
    known = {e.name: e for e in ranges.entries}
    roots = [(e.name, e.extras) for e in ranges.entries if not e.via and e.name in installed]
    walk = _walk(installed, roots, _requirements_reader(installed, dict(wheels.markers), {}))
    entries = []
    for item in resolved:
        before = known.get(item.name)
        via = set(walk.via.get(item.name, ()))
        if before is not None:
            via |= set(before.via)
        entries.append(
            PinEntry(
                name=item.name,
                specifier=f"=={item.version}",
                extras=before.extras if before is not None else (),
                marker=before.marker if before is not None else None,
                via=tuple(sorted(via)),
                hashes=item.hashes if hashes else (),
            )
        )
    provenance = [*ranges.provenance]
    at = next((i for i, (label, _) in enumerate(provenance) if label == "Smoke test"), None)
    provenance.insert(len(provenance) if at is None else at, ("Resolved", described))
    return dataclasses.replace(
        ranges, mode="resolved", entries=tuple(entries), provenance=tuple(provenance)
    )


def resolve_target(
    ranges: Pinset,
    target: Target,
    matrix: Matrix,
    *,
    run: Run,
    index_url: Optional[str] = None,
    python: str = sys.executable,
    env: Optional[Mapping[str, str]] = None,
    timeout: float = TIMEOUT,
    hashes: bool = False,
) -> Pinset:
    """Target-mode pins made exact by pip's resolver (see the module's docstring).

    ``hashes`` keeps the digest of each file pip chose; :func:`~tfdoctor.pin.hashes.add_hashes`
    then adds the other files of each release.
    """
    index = index_url or PYPI
    wheels = wheel_target(matrix, ranges, target)
    requirements = ranges.requested or tuple(e.requirement() for e in ranges.entries if not e.via)
    report = run_resolver(
        requirements, wheels, index_url=index, run=run, python=python, env=env, timeout=timeout
    )
    try:
        resolved = parse_report(report)
    except ReportError as exc:
        raise ResolveError(str(exc)) from None
    if not resolved:
        raise ResolveError("pip's installation report lists nothing to install")
    pip_version = report.get("pip_version")
    by = f"pip {pip_version}" if isinstance(pip_version, str) else "pip"
    described = (
        f"{len(resolved)} distributions at the versions {by}'s resolver picks from "
        f"{display_url(index)}, for {wheels.describe} (binary wheels only)"
    )
    return resolved_pinset(ranges, resolved, wheels, described, hashes=hashes)


def display_url(url: str) -> str:
    """``url`` without the password or token it may carry (``https://user:****@host/``): it
    goes into a header that is committed."""
    parts = urllib.parse.urlsplit(url)
    if parts.password is None and not (parts.username and "@" in parts.netloc):
        return url
    host = parts.netloc.rpartition("@")[2]
    user = f"{parts.username}:****" if parts.password is not None else "****"
    return urllib.parse.urlunsplit(parts._replace(netloc=f"{user}@{host}"))
