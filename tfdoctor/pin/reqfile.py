"""Requirements files as ``tfdoctor check --against`` reads them: pins, nothing else.

The format is pip's (https://pip.pypa.io/en/stable/reference/requirements-file-format/):
one requirement per line, ``#`` comments, ``\\`` continuations, per-requirement options such
as ``--hash``, and global options. Global options that only say where packages come from are
ignored; includes (``-r``, ``-c``), editables and URLs are refused with the line that has them,
since what they pin cannot be read from the file alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tfdoctor.bounded import MAX_TEXT_BYTES, InputError, read_text

#: Global options that do not change which versions are pinned.
_IGNORED_OPTIONS = (
    "-i",
    "--index-url",
    "--extra-index-url",
    "--no-index",
    "-f",
    "--find-links",
    "--pre",
    "--trusted-host",
    "--prefer-binary",
    "--only-binary",
    "--no-binary",
    "--require-hashes",
    "--use-feature",
)
#: Options that pull in what this file does not show.
_REFUSED_OPTIONS = {
    "-r": "includes another file",
    "--requirement": "includes another file",
    "-c": "includes a constraints file",
    "--constraint": "includes a constraints file",
    "-e": "is an editable requirement (a path or URL, not a version)",
    "--editable": "is an editable requirement (a path or URL, not a version)",
}
#: Options allowed after a requirement on its line.
_PER_REQUIREMENT = ("--hash", "--config-settings", "--global-option", "--install-option")

# pip: a comment starts at "#" at the line start or after whitespace.
_COMMENT_RE = re.compile(r"(^|\s+)#.*$")
_OPTION_RE = re.compile(r"\s+(--?[A-Za-z][\w-]*)")


class RequirementsError(ValueError):
    """A requirements file that cannot be compared: ``FILE:LINE: what is wrong``."""


def _logical_lines(text: str) -> Iterator[tuple[int, str]]:
    """(first physical line number, text) with comments removed and continuations joined."""
    buffer = ""
    start = 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = _COMMENT_RE.sub("", raw)
        if not buffer:
            start = number
        if line.endswith("\\"):
            buffer += line[:-1] + " "
            continue
        buffer += line
        if buffer.strip():
            yield start, buffer.strip()
        buffer = ""
    if buffer.strip():
        yield start, buffer.strip()


def parse_requirements(text: str, source: str = "requirements.txt") -> tuple[str, ...]:
    """The requirements of a file's text, normalised (``numpy==1.26.4``), in file order."""
    from packaging.requirements import InvalidRequirement, Requirement  # noqa: PLC0415
    from packaging.utils import canonicalize_name  # noqa: PLC0415

    out: list[str] = []
    seen: dict[str, int] = {}
    for number, line in _logical_lines(text):
        where = f"{source}:{number}"
        if line.startswith("-"):
            option = re.split(r"[\s=]", line, maxsplit=1)[0]
            if not option.startswith("--"):
                option = option[:2]  # "-rbase.txt", "-e." carry their value attached
            if option in _REFUSED_OPTIONS:
                raise RequirementsError(
                    f"{where}: {option} {_REFUSED_OPTIONS[option]}; pass a file of pins "
                    "(such as `tfdoctor pin` writes)"
                )
            if option in _IGNORED_OPTIONS:
                continue
            raise RequirementsError(f"{where}: unknown option {option}")
        requirement = line
        match = _OPTION_RE.search(line)
        if match is not None:
            requirement = line[: match.start()]
            for option in _OPTION_RE.findall(line[match.start() :]):
                if option not in _PER_REQUIREMENT:
                    raise RequirementsError(f"{where}: option {option} is not allowed here")
        try:
            req = Requirement(requirement)
        except InvalidRequirement as exc:
            # packaging's message goes on with the line and a caret under the fault: keep
            # its first line, so the error stays one line.
            reason = str(exc).splitlines()[0] if str(exc) else "not a requirement"
            raise RequirementsError(
                f"{where}: invalid requirement {requirement!r}: {reason}"
            ) from None
        if req.url:
            raise RequirementsError(
                f"{where}: {req.name} @ URL pins a file, not a version; it cannot be compared"
            )
        key = canonicalize_name(req.name)
        if key in seen:
            raise RequirementsError(f"{where}: {req.name} is already required on line {seen[key]}")
        seen[key] = number
        out.append(str(req))
    return tuple(out)


def read_requirements(path: str) -> tuple[str, ...]:
    """The requirements in the file at ``path``; :class:`RequirementsError` when unusable."""
    try:
        text = read_text(path, MAX_TEXT_BYTES, "a requirements file")
    except InputError as exc:
        raise RequirementsError(str(exc)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RequirementsError(f"cannot read {path}: {exc}") from None
    return parse_requirements(text, path)
