"""What installers' own words show about an installation, read over several lines.

A resolver that locks a project for every platform (uv's project commands, Poetry) reads one
wheel's metadata for all of them; where TensorFlow's ``tensorflow`` wheel for one platform
requires another distribution that holds its code (a matrix line's ``wrappers``:
tensorflow-macos on Apple silicon for 2.13 to 2.15), the lock leaves it out, and the list of
what the installer installed shows ``tensorflow`` without it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Callable, Optional

from tfdoctor import causes
from tfdoctor.evidence.macos import INTEL, python_machine
from tfdoctor.evidence.packages import Unavailable
from tfdoctor.evidence.pip import read_locked_installs, requested_version
from tfdoctor.evidence.traceback import Inferred
from tfdoctor.facts import TF_DISTRIBUTIONS
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.machine import Machine
from tfdoctor.wheel_index import releases_of

#: Python's words where the interpreter finds no ``tensorflow`` module (ModuleNotFoundError's
#: "No module named 'tensorflow'", Python 2's ImportError without the quotes).
_TF_MODULE_MISSING = re.compile(r"No module named '?tensorflow'?(?![\w.])")
#: The locked install's own line for ``tensorflow`` (uv's `` + tensorflow==X``, Poetry's
#: ``- Installing tensorflow (X)``; :class:`tfdoctor.evidence.pip.LockedInstall`).
_TF_LOCKED_LINE = re.compile(r"(?:\+ tensorflow==|[-\u2022] Installing tensorflow \()")


def _module_missing_after_install(text: str) -> bool:
    """Whether the interpreter finds no ``tensorflow`` module after the locked install's
    line for it (a missing module shown before the install says nothing of it)."""
    installed = [m.end() for m in _TF_LOCKED_LINE.finditer(text)]
    return bool(installed) and _TF_MODULE_MISSING.search(text, installed[-1]) is not None


def locked_without_wrapper(
    text: str,
    m: Machine,
    os: Optional[str],
    mac: Optional[Inferred],
    os_in_text: Callable[[str], Optional[str]],
) -> Optional[Finding]:
    """uv or Poetry reporting it installed ``tensorflow`` of a line whose wheel for the log's
    system (``os``) requires a wrapper distribution, and not that wrapper: the wrapper's
    absence is the missing dependency. On macOS only an arm64 interpreter needs it (the
    x86-64 wheel holds the code): an error where the log prints an arm64 platform, or shows
    the interpreter finding no ``tensorflow`` module after the install (the x86-64 wheel
    would have put it there), nothing for an x86-64 one or an Intel Mac, else a warning.
    Linux needs it on aarch64 only, which the system alone does not say: nothing there.
    ``os_in_text`` reads the system from the whole text where the cited lines did not show it
    (no signature cites an install that went through)."""
    if m.matrix is None or "nstall" not in text:
        return None
    installs = read_locked_installs((text,))
    if not installs:
        return None
    os = os or os_in_text(text)
    if os not in ("macos", "windows") or (os == "macos" and mac is not None and mac.value == INTEL):
        return None
    # The wheels an installer picks are the interpreter's: an x86-64 Python (an Intel Mac,
    # or Rosetta 2 on Apple silicon) installs the x86-64 wheel, which holds the code.
    printed = python_machine(text) if os == "macos" else None
    if printed == "x86_64":
        return None
    for install in installs:
        names = dict(install.installed)
        version = names.get("tensorflow")
        line = m.matrix.line_for(version) if version else None
        if version is None or line is None:
            continue
        for platform, wrapper in sorted(line.wrappers.items()):
            if platform.split("-", 1)[0] != os or wrapper in names:
                continue
            sure = os == "windows" or printed == "arm64" or _module_missing_after_install(text)
            cause = causes.software.DEPENDENCY_MISSING
            where = "" if sure else " (if this Python is an arm64 one, on Apple silicon)"
            return causes.finding(
                f"explain.{cause}",
                Severity.ERROR if sure else Severity.WARNING,
                cause,
                f"{install.installer} installed tensorflow {version} without {wrapper}{where}",
                f"{install.installer} reports installing tensorflow {version} and not "
                f"{wrapper}, which tensorflow {version}'s wheel for {platform} requires "
                "(its metadata only; the lock read another platform's wheel)."
                + (
                    ""
                    if sure
                    else " An x86-64 Python's wheel (an Intel Mac, Rosetta 2) holds the code "
                    'and needs nothing: `python -c "import platform; print(platform.machine())"` '
                    "tells."
                ),
                causes.software.locked_wrapper_fix(install.installer, version, wrapper, platform),
            )
    return None


def unavailable_findings(found: Sequence[Unavailable], m: Machine) -> list[Finding]:
    """pip's resolver reporting that no candidate of one package could meet its requirement
    of another (:func:`tfdoctor.evidence.packages.read_unavailable`): no release of that
    requirement in the range has a file pip can install for this Python and platform."""
    out: list[Finding] = []
    for item in found:
        cause = causes.platform.TF_NO_WHEEL_FOR_PYTHON
        spec = item.specs[0] if len(item.specs) == 1 else ""
        fix: Fix
        if item.dist in TF_DISTRIBUTIONS:
            cause, fix, _ = causes.platform.pip_refusal_fix(
                m, (), requested_version(spec), m.python_version, item.dist, False, item.required_by
            )
        elif releases_of(item.dist):
            fix = causes.software.companion_no_wheel_fix(m, item.dist, (), False, spec)
        else:
            fix = causes.software.package_no_wheel_fix(m, item.dist, spec, False, item.required_by)
        wanted = " or ".join(f"{item.dist}{s}" for s in item.specs)
        out.append(
            causes.finding(
                f"explain.{cause}",
                Severity.ERROR,
                cause,
                f"pip found no {item.dist} release that {item.required_by} can use here",
                f"pip: the conflict is caused by {item.required_by} "
                f"{', '.join(item.versions)} each depending on {wanted}: pip tried those "
                f"{item.required_by} releases and could install none, as it found no release "
                f"of {item.dist} in that range with a file for this Python and platform.",
                fix,
                ("https://pip.pypa.io/en/stable/topics/dependency-resolution/",),
            )
        )
    return out
