"""The Linux distribution a log shows, in os-release's identifiers.

``check`` reads /etc/os-release itself (``PlatformFacts.os_ids``); a pasted log shows the
distribution only where its author printed it: ``cat /etc/os-release`` (``ID=``,
``ID_LIKE=``, ``PRETTY_NAME=``: os-release(5),
https://www.freedesktop.org/software/systemd/man/latest/os-release.html), ``lsb_release -a``
(``Distributor ID:``, lsb_release(1)), ``hostnamectl`` (``Operating
System:``, the PRETTY_NAME it reads: systemd's src/hostname/hostnamectl.c) or the ``OS
Platform and Distribution`` answer of TensorFlow's issue form (:mod:`tfdoctor.evidence.stated`).
Nothing is read from anything else: no distribution without its name in the text.
"""

from __future__ import annotations

import re
from typing import Optional

from tfdoctor.records import Record, record


@record
class Distro(Record):
    """The distribution a log names: os-release's ``ID`` then its ``ID_LIKE`` words (lower
    case, as ``PlatformFacts.os_ids``), and its name as printed."""

    ids: tuple[str, ...]
    name: str
    #: Where it was read: ``os-release``, ``lsb_release``, ``hostnamectl`` or ``form``.
    source: str


#: os-release's ``ID``, ``ID_LIKE``, ``VERSION_ID``, ``NAME`` and ``PRETTY_NAME`` assignments
#: at a line's start, values quoted or bare (os-release(5): shell-compatible assignments).
_OS_RELEASE_FIELD = re.compile(
    r"^[ \t]*(?P<key>ID|ID_LIKE|VERSION_ID|PRETTY_NAME|NAME)="
    r"""(?P<q>["']?)(?P<value>[^"'\n]{1,120})(?P=q)[ \t]*\r?$""",
    re.MULTILINE,
)
#: lsb_release -a's "Distributor ID:" row (lsb_release(1), a tab after the colon; its
#: "Description:" label is too common elsewhere to read alone) and hostnamectl's "Operating
#: System:" row (hostnamectl.c, right-aligned labels).
_NAMED_ROW = re.compile(
    r"^[ \t]*(?P<label>Distributor ID|Operating System):"
    r"[ \t]*(?P<value>\S[^\n]{0,120}?)[ \t]*\r?$",
    re.MULTILINE,
)

#: A distribution's name as lsb_release, hostnamectl or a user writes it, and the identifiers
#: its os-release carries (ID then ID_LIKE): Ubuntu's ID_LIKE=debian; Linux Mint's
#: ID=linuxmint, ID_LIKE=ubuntu; Pop!_OS's ID=pop, ID_LIKE="ubuntu debian"; CentOS'
#: ID_LIKE="rhel fedora"; RHEL's ID_LIKE=fedora; Rocky's and AlmaLinux' ID_LIKE="rhel centos
#: fedora"; openSUSE's ID_LIKE="suse opensuse". Derivatives before the family they name.
_NAMES: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = (
    (re.compile(r"(?i)\blinux\s*mint\b|^linuxmint\b"), ("linuxmint", "ubuntu", "debian")),
    (re.compile(r"(?i)\bpop!?_?os\b"), ("pop", "ubuntu", "debian")),
    (re.compile(r"(?i)\bubuntu\b"), ("ubuntu", "debian")),
    (re.compile(r"(?i)\bdebian\b"), ("debian",)),
    (re.compile(r"(?i)\brocky\b"), ("rocky", "rhel", "centos", "fedora")),
    (re.compile(r"(?i)\balma\s*linux\b"), ("almalinux", "rhel", "centos", "fedora")),
    (re.compile(r"(?i)\bcentos\b"), ("centos", "rhel", "fedora")),
    (re.compile(r"(?i)\bred\s*hat\b|\brhel\b"), ("rhel", "fedora")),
    (re.compile(r"(?i)\bfedora\b"), ("fedora",)),
    (re.compile(r"(?i)\bopensuse\b"), ("opensuse", "suse")),
    (re.compile(r"(?i)\barch\s*linux\b"), ("arch",)),
    (re.compile(r"(?i)\balpine\b"), ("alpine",)),
)


def _named(name: str) -> Optional[tuple[str, ...]]:
    """The identifiers of the distribution ``name`` names, or None for another name."""
    return next((ids for pattern, ids in _NAMES if pattern.search(name)), None)


def _os_release_block(fields: dict[str, str]) -> bool:
    """``fields`` hold an os-release block: an ``ID`` and one of os-release's own fields."""
    return "ID" in fields and any(k in fields for k in ("PRETTY_NAME", "ID_LIKE", "VERSION_ID"))


def _os_release(text: str) -> Optional[Distro]:
    """The distribution of the first os-release block ``text`` shows: its ``ID=`` with a
    field of os-release's own beside it (``PRETTY_NAME=``, ``ID_LIKE=`` or ``VERSION_ID=``),
    and a name. ``ID=`` and ``NAME=`` alone are any shell's variables (env's output: WSL's
    ``NAME`` is the Windows host's name)."""
    fields: dict[str, str] = {}
    for found in _OS_RELEASE_FIELD.finditer(text):
        key = found.group("key")
        if key in fields:
            if _os_release_block(fields):
                break  # a second block: the first one's fields are complete
            continue
        fields[key] = found.group("value").strip()
    ident = fields.get("ID", "").lower()
    name = fields.get("PRETTY_NAME") or fields.get("NAME")
    if (
        not _os_release_block(fields)
        or name is None
        or not re.fullmatch(r"[a-z0-9._-]{1,40}", ident)
    ):
        return None
    like = tuple(w for w in fields.get("ID_LIKE", "").lower().split() if w != ident)
    return Distro((ident, *like), name, "os-release")


def read_distro(text: str, stated_os: str = "") -> Optional[Distro]:
    """The Linux distribution ``text`` shows (os-release's lines, then ``lsb_release -a``'s or
    ``hostnamectl``'s rows), else the one the issue form's answer ``stated_os`` names; None
    where none is named. A form's answer naming a container or VM names the guest, not the
    machine, and is not read."""
    if "ID=" in text:
        shown = _os_release(text)
        if shown is not None:
            return shown
    if ":" in text:
        for found in _NAMED_ROW.finditer(text):
            value = found.group("value")
            ids = _named(value)
            if ids is not None:
                label = found.group("label")
                source = "hostnamectl" if label == "Operating System" else "lsb_release"
                return Distro(ids, value, source)
    if stated_os and not re.search(r"(?i)\bdocker|\bcontainer|\bvm\b", stated_os):
        ids = _named(stated_os)
        if ids is not None:
            return Distro(ids, stated_os.strip(), "form")
    return None


#: A container image built on Alpine, musl's best-known distribution: its own repository
#: (``alpine``, ``alpine:3.19``) or an official image's Alpine variant, whose tag says so
#: (``python:3.11-alpine``, ``python:3.12-alpine3.20``; Docker Hub's python image page).
_ALPINE_IMAGE = re.compile(
    r"(?<![\w./:-])(?P<image>(?:[\w.-]+/)*(?:alpine(?::[\w.-]+)?|[\w.-]+:[\w.-]*alpine[\w.-]*))"
    r"(?![\w./:-])"
)
#: A Dockerfile's ``FROM`` (its image after any ``--platform=``), and a ``docker``/``podman``
#: ``run`` command line.
_FROM = re.compile(r"^[ \t]*FROM[ \t]+(?:--platform=\S+[ \t]+)?(?P<image>\S+)", re.MULTILINE)
_RUN = re.compile(
    r"^[^\n]*?\b(?:docker|podman)(?:[ \t]+container)?[ \t]+run\b(?P<args>[^\n]*)", re.MULTILINE
)
#: ``docker run``'s options that take a value as the next word (``--name alpine``, ``-v
#: vol:/data``; https://docs.docker.com/reference/cli/docker/container/run/): that word is no
#: image. Its other options are flags (``--rm``, ``-it``) or carry their value after ``=``.
_RUN_VALUED = frozenset(
    [
        "-a",
        "--attach",
        "--add-host",
        "--cap-add",
        "--cap-drop",
        "--cgroupns",
        "--cidfile",
        "--cpus",
        "--cpu-shares",
        "-c",
        "--cpuset-cpus",
        "--device",
        "--dns",
        "--entrypoint",
        "-e",
        "--env",
        "--env-file",
        "--expose",
        "--gpus",
        "--group-add",
        "-h",
        "--hostname",
        "--ipc",
        "-l",
        "--label",
        "--link",
        "--log-driver",
        "--log-opt",
        "-m",
        "--memory",
        "--mount",
        "--name",
        "--net",
        "--network",
        "--network-alias",
        "-p",
        "--publish",
        "--pid",
        "--platform",
        "--pull",
        "--restart",
        "--runtime",
        "--security-opt",
        "--shm-size",
        "--stop-signal",
        "--tmpfs",
        "-u",
        "--user",
        "--ulimit",
        "-v",
        "--volume",
        "--volumes-from",
        "-w",
        "--workdir",
    ]
)


def _run_image(args: str) -> Optional[str]:
    """The image of a ``docker run`` command's arguments: the first word after its options
    (and their values), or None."""
    words = args.split()
    i = 0
    while i < len(words):
        word = words[i]
        if not word.startswith("-"):
            return word.strip("\"'")
        i += 2 if word in _RUN_VALUED else 1
    return None


def alpine_image(text: str) -> Optional[str]:
    """The Alpine-based image ``text`` runs or builds on (a ``FROM`` line's, a ``docker run``
    line's), where every image it shows so is; None where none is, or another image (a
    multi-stage build's glibc stage, a second container) is shown beside it."""
    if "alpine" not in text:
        return None
    shown: list[str] = []
    for found in _FROM.finditer(text):
        image = _ALPINE_IMAGE.fullmatch(found.group("image"))
        if image is None:
            return None
        shown.append(image.group("image"))
    for found in _RUN.finditer(text):
        # The image, not another word of the line (``--name alpine``, a command's argument).
        run = _run_image(found.group("args"))
        image = _ALPINE_IMAGE.fullmatch(run) if run is not None else None
        if image is None:
            return None
        shown.append(image.group("image"))
    return shown[-1] if shown else None
