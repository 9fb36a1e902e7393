"""Which installer or resolver printed a refusal, read once from its words.

A log's refusal ("no matching distribution", "no version of", "no wheels with a matching
platform tag") is told by pip, uv, Poetry or pip-tools, each in its own words; the signatures
that read those words carry the installer's tag (``pip-words``, ``uv-words``, ...). The fix
then speaks the installer's language: ``uv pip install`` or ``uv add`` where uv refused,
``poetry add`` where Poetry did. This module is the one reading of it that every fix builder
asks (:func:`read_installer`). The log as a whole names its installer by the uv command
it echoes or uv's resolver report (:func:`log_installer`, the installer a machine read from a
log is given).

uv has two interfaces, told apart by the words at the root of its report: ``uv pip`` ("you
require", "your requirements are unsatisfiable") and a project's (``uv add``/``uv sync``:
"your project depends on", and the lock's platform hint "You're on Windows (`win32`), but
...", which only a project's lock prints).
https://github.com/astral-sh/uv/blob/0.6.0/crates/uv-resolver/src/pubgrub/report.rs
https://github.com/astral-sh/uv/blob/0.6.0/crates/uv-resolver/src/lock/mod.rs
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Optional

from tfdoctor.records import Record, record

#: The signatures' tags that name the installer whose words a line is in (signatures.yaml).
PIP_WORDS = "pip-words"
UV_WORDS = "uv-words"
POETRY_WORDS = "poetry-words"
#: pip-tools' resolver's own words ("Could not find a version that matches X", pip-tools'
#: piptools/resolver.py); it finds files with pip's own finder.
#: https://github.com/jazzband/pip-tools/blob/7.4.1/piptools/resolver.py
PIPTOOLS_WORDS = "piptools-words"

#: uv's lock's hint for a platform its wheels leave out: a project's (``uv sync``, ``uv
#: add``), never ``uv pip``'s (lock/mod.rs, above).
_UV_LOCK_HINT = re.compile(r"\bYou're on (?:Windows|Linux|macOS) \(`")


@record
class Installer(Record):
    """The installer whose words a refusal is in: ``tool`` is ``pip``, ``uv``, ``poetry`` or
    ``pip-tools``; ``interface`` is uv's (``uv pip``, ``uv`` for a project, ``pixi`` where
    pixi's PyPI resolver, uv's, printed them) where the log says which, else empty."""

    tool: str = "pip"
    interface: str = ""

    @property
    def finder(self) -> str:
        """The installer as a finding names the one whose index finder refused: pip for
        pip-tools too (it finds files with pip's finder), ``Poetry`` capitalised."""
        return {"poetry": "Poetry", "pip-tools": "pip"}.get(self.tool, self.tool)

    @property
    def uv(self) -> bool:
        """Whether uv refused."""
        return self.tool == "uv"


def read_installer(words: Collection[str], cited: str) -> Installer:
    """The installer named by the signatures' tags ``words`` (pip's over the others: pip's
    own words are pip's wherever a resolver's also show) and, for uv, its interface as the
    ``cited`` lines say; pip where no tag names one."""
    if PIP_WORDS in words:
        return Installer("pip")
    if UV_WORDS in words:
        interface = "uv" if _UV_LOCK_HINT.search(cited) else uv_interface(cited)
        return Installer("uv", interface)
    if POETRY_WORDS in words:
        return Installer("poetry")
    return Installer("pip-tools") if PIPTOOLS_WORDS in words else Installer("pip")


#: uv's words for the requirements at the root where no project is resolved (``uv pip
#: install``: "you require ..., we can conclude that your requirements are unsatisfiable");
#: a project's are "your project depends on ..." and "your project's requirements".
_UV_PIP_ROOT = re.compile(r"\byou\s+require\b|\byour\s+requirements\s+are\s+unsatisfiable")
_UV_PROJECT_ROOT = re.compile(r"\byour\s+project(?:'s)?\s")


def uv_interface(text: str) -> str:
    """Which of uv's interfaces printed the report in ``text``, by the words for its root:
    ``uv pip`` ("you require", "your requirements are unsatisfiable"), ``uv`` (a project
    command: "your project depends on"), or empty where the text says neither."""
    if _UV_PIP_ROOT.search(text):
        return "uv pip"
    return "uv" if _UV_PROJECT_ROOT.search(text) else ""


#: uv's resolver report, whatever uv resolved: "No solution found when resolving
#: dependencies:", "... script dependencies:", "... `--with` dependencies:", "... dependencies
#: for split (...):" (uv's snapshot tests, astral-sh/uv crates/uv/tests/it/lock.rs and
#: pip_install.rs; reticulate's tests/testthat/_snaps/py_require.md shows the script form).
_UV_REPORT = re.compile(r"\bNo solution found when resolving (?:\S+ )?dependencies\b")
#: A uv command the log echoes at a line's start (after a shell prompt, where shown): its pip
#: interface (``uv pip install``) or a project's commands (``uv add``, ``sync``, ``lock``,
#: ``run``), https://docs.astral.sh/uv/reference/cli/.
_UV_COMMAND = re.compile(r"(?m)^[ \t]*(?:[$>%#] ?)?uv (pip |add |sync\b|lock\b|run )")


#: A pixi workspace: a pixi command the log echoes (``pixi add``, ``install``, ``run``,
#: ``shell``, ``update``, ``lock``; https://pixi.sh/latest/reference/cli/pixi/), pixi's own
#: words around a PyPI resolution it hands to uv's resolver ("failed to solve the pypi
#: requirements of ..." above "failed to resolve pypi dependencies", the context pixi adds in
#: its lock-file update, prefix-dev/pixi src/lock_file/resolve/pypi.rs; its docs show both over
#: uv's "... your requirements are unsatisfiable"), or a path in a workspace's environments
#: (``.pixi/envs/<name>``). uv's words there are pixi's resolver's: its fix is pixi's.
_PIXI = re.compile(
    r"(?m)^[ \t]*(?:[$>%#] ?)?pixi (?:add|install|run|shell|update|lock)\b"
    r"|\bfailed to (?:solve the pypi requirements of|resolve pypi dependencies)\b"
    r"|[/\\]\.pixi[/\\]envs[/\\]"
)
#: A uv project's lock file named in the log ("The lockfile at `uv.lock` needs to be updated",
#: uv's words for ``--locked``, https://docs.astral.sh/uv/concepts/projects/sync/; a path to
#: one): only a project has one (its pip interface writes no lock).
_UV_LOCK = re.compile(r"(?<![\w.-])uv\.lock\b")


def log_installer(text: str) -> Optional[str]:
    """The installer whose words the log shows where not pip: ``pixi`` (a pixi workspace,
    whose PyPI resolver is uv's: its words are pixi's then), ``uv pip`` (uv's pip interface)
    or ``uv`` (a uv project), by the uv command it echoes, else by uv's resolver report
    (:func:`uv_interface`; a project where the log names its ``uv.lock``, else its pip
    interface where the words say neither); None where the log shows none (pip's, or not
    shown)."""
    if _PIXI.search(text):
        return "pixi"
    command = _UV_COMMAND.search(text)
    if command is not None:
        return "uv pip" if command.group(1) == "pip " else "uv"
    if _UV_LOCK.search(text):
        return "uv"
    if _UV_REPORT.search(text):
        return uv_interface(text) or "uv pip"
    return None
