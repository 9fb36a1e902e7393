"""Which kind of Mac a text shows: one with an Intel processor, or Apple silicon.

It decides what an illegal instruction on macOS means. Apple silicon runs x86-64 code only
under Rosetta 2, which does not translate AVX; an Intel Mac runs it natively, and only the
oldest ones lack AVX. Apple silicon Macs shipped with macOS 11 (Big Sur, Darwin 20), so a
macOS release of the 10 line a machine prints is an Intel Mac (macOS 11 reports itself as
10.16 to programs built against older SDKs, so 10.16 is not one), as is a kernel built for
x86-64 (``uname -v``: ``RELEASE_X86_64``; Apple silicon's kernel is ``RELEASE_ARM64_*``
even for a process under Rosetta), while ``sysctl.proc_translated: 1`` is a process under
Rosetta (https://developer.apple.com/documentation/apple-silicon/about-the-rosetta-translation-environment).

Only signs that are a Mac's own are read (a macOS release, a Darwin kernel, a Mac model, an
Apple chip): "Intel Core i7" alone may be any PC. What the machine prints is preferred to
what a user writes; signs of both kinds in the user's words decide nothing.
"""

from __future__ import annotations

import re
from typing import Optional

from tfdoctor.evidence.devices import unix_prompts
from tfdoctor.evidence.traceback import Inferred

#: How much of a text is searched.
MAC_READ = 64 << 10

INTEL = "Intel Mac"
APPLE = "Apple silicon"

#: What the machine prints: platform.platform() (macOS-10.13.6-x86_64-i386-64bit,
#: Darwin-17.7.0-x86_64-i386-64bit), uname's kernel build, sysctl's answers.
_PRINTED = re.compile(
    r"(?m)"
    r"\b(?:macOS|Darwin)-(?P<release>\d+)\.(?P<minor>\d+)(?:\.\d+)?-(?P<machine>arm64|x86_64)\b"
    r"|\bRELEASE_(?P<kernel>X86_64|ARM64)"
    r"|\bsysctl\.proc_translated:\s*(?P<translated>[01])\b"
    # Apple's own check, `sysctl -in sysctl.proc_translated` (or -n), answers on the next line.
    r"|\bsysctl\s+-i?n\s+sysctl\.proc_translated[ \t]*\r?\n[ \t]*(?P<translated_n>[01])[ \t]*$"
    r"|\bmachdep\.cpu\.brand_string:\s*(?P<brand>Apple M\d|Intel)"
    # `uname -m` answers on the next line: arm64 is XNU's name for Apple silicon run natively
    # (Linux on Arm answers aarch64; a shell under Rosetta 2 answers x86_64, and says nothing).
    r"|\buname[ \t]+-m[ \t]*\r?\n[ \t]*(?P<uname_m>arm64)[ \t]*\r?$"
)
#: A Mac's own words in a user's text: a macOS release or name, a Mac model with its year,
#: Apple's chips, Rosetta, an Intel Mac.
_SAID = re.compile(
    r"(?i)\b(?:mac\s*os\s*x?|os\s*x|macos)\s*(?:version\s*)?(?P<os_major>1[0-5])\.(?P<os_minor>\d+)"
    # A release's name only after macOS's own (Yosemite is a park, Catalina an island).
    r"|\b(?:mac\s*os\s*x?|os\s*x|macos)\s+(?P<old_name>el\s+capitan|high\s+sierra|sierra|mojave"
    r"|catalina|yosemite|mavericks)\b"
    # A Mac model and its year, nothing that names a chip between them.
    r"|\b(?P<model>macbook(?:\s*(?:pro|air))?|imac|mac\s*mini|mac\s*pro)\b"
    r"(?:(?!\bm[1-5]\b)[^\n]){0,25}?\b(?P<year>20[012]\d)\b"
    r"|\b(?P<chip>apple\s+m[1-5]|m[1-5](?:\s+(?:pro|max|ultra))?\s+(?:chip|mac))\b"
    r"|\bmac(?:book(?:\s*(?:pro|air))?|\s*mini|\s*studio)?\s+(?:with\s+(?:an?\s+)?)?"
    r"(?P<mac_chip>m[1-5])\b"
    # Rosetta as Apple's translator (not the protein-design software of that name).
    r"|\b(?P<silicon>apple\s+silicon|rosetta\s*2|(?:under|via|through|with|using)\s+rosetta"
    r"|rosetta\s+(?:terminal|emulation|translation|mode))\b"
    r"|\b(?P<intel_mac>intel(?:-based)?\s+mac(?:book)?)\b"
)


#: uname's answer on macOS: the kernel's name (POSIX uname -s writes utsname's sysname, which
#: XNU's kern.ostype gives as ``Darwin``), first on the line of ``uname -a`` (``Darwin host
#: 23.1.0 Darwin Kernel Version 23.1.0: ...``) and of ``uname -sr`` (``Darwin 23.1.0``), alone
#: on the line after a bare ``uname``/``uname -s``.
#: https://pubs.opengroup.org/onlinepubs/9699919799/utilities/uname.html
_UNAME = re.compile(
    r"(?m)^[ \t]*Darwin[ \t]+(?:\S+[ \t]+)?\d+\.\d+\.\d+\b[^\n]*$"
    r"|\buname(?:[ \t]+-[A-Za-z]+)*[ \t]*\r?\n[ \t]*Darwin[ \t]*\r?$"
)


def uname_darwin(text: str) -> Optional[str]:
    """The line where ``uname`` printed ``Darwin`` (macOS's kernel) in ``text``, or None."""
    head = text[:MAC_READ]
    if "Darwin" not in head:
        return None
    found = _UNAME.search(head)
    if found is None:
        return None
    return found.group(0).strip().splitlines()[-1].strip()[:80]


#: The host name macOS gives a Mac: its computer name (by default the owner's and the model's,
#: "Kim's MacBook Pro") with its spaces made hyphens, as the local host name, in any case
#: (https://support.apple.com/kb/PH10658; https://developer.apple.com/forums/thread/133763):
#: the model's words whole, each its own part of the name (Kims-MacBook-Pro, Kims-iMac,
#: Mac-mini-2.local).
_MAC_HOST = re.compile(
    r"(?i)(?:^|[-.])(?:MacBook(?:-Pro|-Air)?|iMac(?:-Pro)?|Mac-(?:mini|Pro|Studio))(?:[-.]|$)"
)


def prompt_system(text: str) -> Optional[tuple[str, str]]:
    """The system (``macos``, ``linux``) the Unix shell prompts of ``text`` show, with the first
    prompt that shows it; None where none shows one, or they show both (a shell on another
    machine, reached from the first). A Mac's prompt: zsh's as macOS sets it (``user@host dir
    %``, the folder's last part alone: one of a path, ``user@host ~/src %``, is grml's, which
    Linux shows too), one in a home folder under /Users/ (macOS's; Linux keeps them under
    /home/), or one on a host macOS named after its model. Linux's: bash's as Debian and
    Ubuntu set it (``user@host:dir$``) where nothing of a Mac's shows. A ``$`` or ``#`` alone
    says nothing: shells end their prompts so on every Unix."""
    shown: dict[str, str] = {}
    for match in unix_prompts(text[:MAC_READ]):
        # macOS's /etc/zshrc sets PS1="%n@%m %1~ %# " (zsh is its login shell from macOS
        # 10.15 on); zsh's own default is "%m%# " (zshparam(1), PS1), with no user. %1~ is
        # the directory's last part alone: grml's prompt, Arch's install medium's and
        # grml-zsh-config's on Linux, is "%n@%m %40<..<%~%<< %# " (grml-etc-core,
        # etc/zsh/zshrc, grml_prompt_token_default), the whole path, so one with a "/" in it
        # is not macOS's ("~" alone is both).
        folder = match.group("dir")
        zsh_mac = (
            folder is not None
            and match.group("sigil") == "%"
            and (folder == "/" or "/" not in folder)
        )
        home = (match.group("path") or match.group("dir") or "").startswith("/Users/")
        if zsh_mac or home or _MAC_HOST.search(match.group("host")):
            shown.setdefault("macos", match.group(0).strip())
        elif match.group("path") is not None and match.group("sigil") == "$":
            # Debian's /etc/skel/.bashrc: PS1='${debian_chroot:+($debian_chroot)}\u@\h:\w\$ '
            # (macOS's bash sets "\h:\W \u\$ ", with no "@").
            shown.setdefault("linux", match.group(0).strip())
    if len(shown) != 1:
        return None
    ((system, prompt),) = shown.items()
    return system, prompt


#: platform.platform()'s words alone, with the interpreter's machine.
_PLATFORM = re.compile(r"\b(?:macOS|Darwin)-\d+\.\d+(?:\.\d+)?-(?P<machine>arm64|x86_64)\b")


def python_machine(text: str) -> Optional[str]:
    """The machine a Python on macOS reports in platform.platform()'s words in ``text``
    (``arm64``, ``x86_64``), or None: the interpreter's, not the Mac's (an x86-64 Python
    under Rosetta 2 prints x86_64), which decides the wheels pip installs for it."""
    found = _PLATFORM.search(text[:MAC_READ])
    return found.group("machine") if found is not None else None


#: sw_vers's answer (sw_vers(1): "ProductVersion:" then the release, or the release alone on
#: the line after ``sw_vers -productVersion``): the macOS the machine runs.
_PRODUCT_VERSION = re.compile(
    r"^[ \t]*ProductVersion:[ \t]*(?P<line>\d{2}\.\d+(?:\.\d+)?)[ \t]*\r?$"
    r"|\bsw_vers[ \t]+-productVersion[ \t]*\r?\n[ \t]*(?P<answer>\d{2}\.\d+(?:\.\d+)?)[ \t]*\r?$",
    re.MULTILINE,
)


def macos_release(text: str) -> Optional[str]:
    """The macOS release (``10.15.5``) sw_vers printed in ``text``, or None: the system the
    machine runs, which decides the macosx_X_Y tags pip takes there."""
    if "sw_vers" not in text and "ProductVersion:" not in text:
        return None
    found = _PRODUCT_VERSION.search(text[:MAC_READ])
    return (found.group("line") or found.group("answer")) if found is not None else None


def read_mac(text: str, printed_only: bool = False) -> Optional[Inferred]:
    """The kind of Mac ``text`` shows, with the words it rests on (:data:`INTEL`,
    :data:`APPLE`), or None where it shows neither or both; ``printed_only``: only what the
    machine printed (platform strings, uname, sysctl), not a user's words."""
    found, printed = mac_shown(text)
    return found if printed or not printed_only else None


def mac_shown(text: str) -> tuple[Optional[Inferred], bool]:
    """:func:`read_mac`'s answer in one pass, with whether the machine printed it (True) or a
    user's words say it (False)."""
    head = text[:MAC_READ]
    if not _MAYBE.search(head):
        return None, False  # no word any sign holds: the common case, without the patterns
    for match in _PRINTED.finditer(head):
        kind = _printed_kind(match)
        if kind is not None:
            return Inferred("processor", kind, _line_of(head, match)), True
    said: dict[str, str] = {}
    for match in _SAID.finditer(head):
        kind = _said_kind(match)
        if kind is not None:
            said.setdefault(kind, _line_of(head, match))
    if len(said) != 1:
        return None, False
    ((kind, line),) = said.items()
    return Inferred("processor", kind, line), False


#: Words every sign holds one of, searched for first (case-insensitively).
_MAYBE = re.compile(
    r"(?i)mac|darwin|os\s*x|release_|sysctl|apple|rosetta|sierra|mojave|catalina|yosemite"
    r"|mavericks|capitan"
)


def _printed_kind(match: re.Match[str]) -> Optional[str]:
    if match.group("machine"):
        if match.group("machine") == "arm64":
            return APPLE
        release, minor = int(match.group("release")), int(match.group("minor"))
        darwin = match.group(0).startswith("Darwin")
        # x86_64 is also what a process under Rosetta reports: only a release before
        # Apple silicon's first decides (Darwin 20 is macOS 11).
        if (darwin and release < 20) or (not darwin and release == 10 and minor < 16):
            return INTEL
        return None
    if match.group("kernel"):
        return INTEL if match.group("kernel") == "X86_64" else APPLE
    if match.group("uname_m"):
        return APPLE
    translated = match.group("translated") or match.group("translated_n")
    if translated:
        return APPLE if translated == "1" else None
    return APPLE if match.group("brand").startswith("Apple") else INTEL


def _said_kind(match: re.Match[str]) -> Optional[str]:
    if match.group("os_major"):
        major, minor = int(match.group("os_major")), int(match.group("os_minor"))
        return INTEL if major == 10 and minor < 16 else None
    if match.group("old_name"):
        return INTEL  # every one of these releases came before Apple silicon
    year = match.group("year")
    if year:
        # A Mac of 2011 or before is an Intel one that may lack AVX (Sandy Bridge's, from
        # 2011, have it); a later Intel Mac has AVX, so its year decides nothing here.
        return INTEL if int(year) <= 2011 else None
    if match.group("chip") or match.group("mac_chip") or match.group("silicon"):
        return APPLE
    return INTEL if match.group("intel_mac") else None


def _line_of(text: str, match: re.Match[str]) -> str:
    """The line ``match`` is on, trimmed for a report."""
    start = text.rfind("\n", 0, match.start()) + 1
    end = text.find("\n", match.end())
    return text[start : end if end >= 0 else len(text)].strip()[:100]


#: dyld's list of the paths it searched for a library it could not load (dyld 4, macOS 12
#: and later: "Reason: tried: '/a/libx.dylib' (no such file), '/b/libx.dylib' (no such
#: file)"), each path quoted and followed by why it did not do.
_TRIED_LINE = re.compile(r"\btried: (?P<paths>'[^\n]{1,4000})")
_TRIED_PATH = re.compile(r"'(?P<path>/[^'\n]{1,400})' \((?P<why>[^'\n]{0,40})")
#: dyld's reason for a path that holds no file ("no such file", "no such file, not in dyld
#: cache").
_ABSENT = "no such file"


def _tried(text: str) -> list[tuple[str, str]]:
    """Each path dyld says it tried in ``text``, with the start of its reason."""
    head = text[:MAC_READ]
    if "tried: " not in head:
        return []
    return [
        (p.group("path"), p.group("why"))
        for line in _TRIED_LINE.finditer(head)
        for p in _TRIED_PATH.finditer(line.group("paths"))
    ]


def dyld_tried(text: str) -> tuple[str, ...]:
    """The paths dyld says it tried for a library it did not load, in the order it gives
    them (each once), from every "tried:" list in ``text``."""
    return tuple(dict.fromkeys(path for path, _ in _tried(text)))


def dyld_refused(text: str) -> tuple[str, ...]:
    """The paths dyld tried where it did not say there was no file: a file it found and
    refused (of another architecture, its code signature not valid for the process, the
    sandbox blocking its open), in its order, each once."""
    return tuple(dict.fromkeys(p for p, why in _tried(text) if not why.startswith(_ABSENT)))
