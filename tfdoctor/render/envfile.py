"""Environment settings as shell code, Dockerfile ENV lines or a dotenv file.

Every format gets a ``#`` comment with the reason above each variable (POSIX sh, fish,
PowerShell, Dockerfiles and dotenv files all read ``#`` lines as comments). Values are
quoted so the shell, Docker or the dotenv reader gives back exactly the value; a value a
format cannot carry (a newline in a Dockerfile ENV) raises :class:`EnvFormatError`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Callable

from tfdoctor.env.settings import EnvSetting
from tfdoctor.env.usage import USAGE

#: The formats ``tfdoctor env`` prints.
FORMATS = ("sh", "fish", "powershell", "dockerfile", "dotenv")

#: The shells ``tfdoctor env --shell`` names, and the format each reads: bash, zsh and dash
#: all read POSIX sh's ``export NAME='value'`` (POSIX, Shell Command Language, 2.2.2).
SHELLS = {
    "sh": "sh",
    "bash": "sh",
    "zsh": "sh",
    "dash": "sh",
    "fish": "fish",
    "powershell": "powershell",
}

# Characters that need no quoting in any of the formats.
_PLAIN = re.compile(r"[A-Za-z0-9_./:,=+@%-]+")
# What makes a dotenv value need quotes: python-dotenv and compose read quotes, `#` comments,
# `$` expansion and backslash escapes, and strip surrounding blanks; `docker run --env-file`
# takes the rest of the line as is (https://github.com/docker/cli/issues/3630).
_DOTENV_SPECIAL = re.compile(r"['\"#$\\\n]|^\s|\s$")

DOTENV_QUOTE_NOTE = (
    "The next value is quoted for docker compose and python-dotenv; `docker run --env-file` "
    "does not unquote (docker/cli#3630), so set it with -e there."
)


class EnvFormatError(ValueError):
    """A value that the chosen format cannot carry."""


def _sh(value: str) -> str:
    # POSIX single quotes keep everything literal; a quote closes, is escaped, and reopens.
    return "'" + value.replace("'", "'\\''") + "'"


def _fish(value: str) -> str:
    # fish single quotes: only \\ and \' are escapes (fish docs, "Quotes").
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _powershell(value: str) -> str:
    # PowerShell verbatim strings double the quote, and it treats the typographic single
    # quotes U+2018-U+201B as quotes too (about_Quoting_Rules).
    for quote in "'\u2018\u2019\u201a\u201b":
        value = value.replace(quote, quote * 2)
    return "'" + value + "'"


def _dockerfile(value: str) -> str:
    if "\n" in value or "\r" in value:
        # A newline ends the ENV instruction; a backslash before it continues the line and
        # drops the newline (https://docs.docker.com/reference/dockerfile/#environment-replacement).
        raise EnvFormatError(
            "a Dockerfile ENV value cannot hold a line break; use --shell sh or --dotenv"
        )
    if _PLAIN.fullmatch(value):
        return value
    # ENV values in double quotes: backslash escapes, and $ would be substituted
    # (https://docs.docker.com/reference/dockerfile/#environment-replacement).
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$")
    return f'"{escaped}"'


def _dotenv_quoted(value: str) -> bool:
    return _DOTENV_SPECIAL.search(value) is not None


def _dotenv(value: str) -> str:
    # Bare wherever possible: `docker run --env-file` keeps quotes as part of the value.
    if not _dotenv_quoted(value):
        return value
    # Compose reads single-quoted values literally; python-dotenv too, but for \\ and \'.
    if "'" not in value and "\n" not in value and "\\\\" not in value:
        return f"'{value}'"
    if "$" in value:
        # Double quotes expand ${NAME} in both readers, with no escape they share.
        raise EnvFormatError(
            "a dotenv value with both a quote or line break and a $ has no portable form"
        )
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


_LINE: dict[str, Callable[[str, str], str]] = {
    "sh": lambda name, value: f"export {name}={_sh(value)}",
    "fish": lambda name, value: f"set -gx {name} {_fish(value)}",
    "powershell": lambda name, value: f"$env:{name} = {_powershell(value)}",
    "dockerfile": lambda name, value: f"ENV {name}={_dockerfile(value)}",
    "dotenv": lambda name, value: f"{name}={_dotenv(value)}",
}


def _comment(text: str) -> str:
    return "# " + " ".join(text.split())


def render_env(settings: Sequence[EnvSetting], fmt: str, version: str) -> str:
    """The settings in format ``fmt`` (one of :data:`FORMATS`, or a shell of :data:`SHELLS`),
    with a reason per variable.

    Raises :class:`EnvFormatError` for a value ``fmt`` cannot carry.
    """
    fmt = SHELLS.get(fmt, fmt)
    if fmt not in _LINE:
        raise ValueError(f"unknown format {fmt!r}; one of {', '.join(FORMATS)}")
    lines = [
        _comment(f"TensorFlow environment from tfdoctor {version}. Use: {USAGE[fmt]}"),
    ]
    for setting in settings:
        lines.append(_comment(setting.reason))
        if fmt == "dotenv" and _dotenv_quoted(setting.value):
            lines.append(_comment(DOTENV_QUOTE_NOTE))
        lines.append(_LINE[fmt](setting.name, setting.value))
    return "\n".join(lines) + "\n"
