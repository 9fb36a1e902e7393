"""A conda (or mamba) environment a log shows active: its prompt, its paths, its commands.

conda's and mamba's shell hooks put the active environment's name before the prompt
(``(sleap) user@host:~$``, ``changeps1``:
https://docs.conda.io/projects/conda/en/latest/user-guide/configuration/settings.html); an
environment lives in ``<root>/envs/<name>/`` (its interpreter in ``bin/``, its libraries in
``lib/``); ``conda activate``, ``mamba create`` and ``source activate`` name one. What is read
here is what the log shows, with the line it came from; a venv's prompt looks the same as
conda's, so a prompt is read as conda's only where the text names conda (or the prompt is
conda's own `(base)`), and never with a name a venv usually has.
"""

from __future__ import annotations

import re
from typing import Optional

#: How much of a text is searched (a prompt and the commands open what a user pasted).
CONDA_READ = 256 << 10

#: A prompt with an environment's name before a Unix shell's own (``user@host:dir$``,
#: ``[user@host dir]$``, ``user@host dir %``).
_PROMPT = re.compile(
    r"(?m)^\((?P<env>[\w.-]{1,60})\)[ \t]+"
    r"(?:[\w.-]+@[\w.-]+(?::[~/][^\s$#%]{0,200}| [~\w./-]{1,200}) ?[$#%]"
    r"|\[[\w.-]+@[\w.-]+ [^\]\n]{0,200}\][$#])"
)
#: Names ``python -m venv``, virtualenv, Poetry and Pipenv give their environments' prompts.
_VENV_NAME = re.compile(r"(?i)venv|virtualenv|^\.?env$|-py\d\.\d+$|-[A-Za-z0-9_-]{8}$")
#: conda, or a distribution of it (miniconda, anaconda, mamba, micromamba, miniforge),
#: named anywhere: what makes a prompt's name a conda environment's rather than a venv's.
_CONDA_WORDS = ("conda", "mamba", "miniforge")


def _names_conda(head: str) -> bool:
    """Whether ``head`` names conda, or shows conda's own default environment's prompt
    (``(base)``): substring tests, as a log's head is read for every block."""
    low = head.lower()
    return "(base)" in head or any(word in low for word in _CONDA_WORDS)


#: An environment's directory in a path, under conda's, Miniforge's or mamba's root.
_ENV_PATH = re.compile(
    r"[/\\](?:(?:mini|ana)conda\d*|miniforge\d*|mambaforge|micromamba|conda|\.conda)"
    r"[/\\]envs[/\\][\w.-]{1,60}[/\\]"
)
#: A command that makes or enters an environment.
_COMMAND = re.compile(
    r"(?m)(?:^|[$#%>][ \t]*)"
    r"(?:(?:conda|mamba|micromamba)[ \t]+(?:activate|create)|source[ \t]+activate)"
    r"[ \t]+\S"
)


#: A virtual environment made or entered (python -m venv, virtualenv, its activate script on
#: Unix or Windows) or a venv's prompt stacked on conda's: the Python that runs is the venv's.
_VENV_AFTER = re.compile(
    r"(?m)-m[ \t]+(?:venv|virtualenv)\b|\bvirtualenv[ \t]+\S|(?:^|[ \t;&])(?:source|\.)[ \t]+\S*"
    r"bin/activate\b|Scripts[\\/]activate|^\([\w.-]{1,60}\)[ \t]+\([\w.-]{1,60}\)[ \t]"
)


def read_conda_env(text: str) -> Optional[tuple[int, str]]:
    """The first line of ``text`` (its head) showing an active conda environment: its index
    and the line, stripped; None where none does."""
    head = text[:CONDA_READ]
    found: list[re.Match[str]] = []
    if "(" in head and _names_conda(head):
        # A prompt's name alone is a venv's as often as conda's (`python -m venv` names the
        # prompt after its directory): read only where the text names conda at all.
        found += [m for m in _PROMPT.finditer(head) if not _VENV_NAME.search(m.group("env"))][:1]
    if "envs" in head:
        found += [m for m in (_ENV_PATH.search(head),) if m is not None]
    if "activate" in head or "create" in head:
        found += [m for m in (_COMMAND.search(head),) if m is not None]
    if not found:
        return None
    first = min(found, key=lambda m: m.start())
    if _VENV_AFTER.search(head, first.start()):
        return None  # a venv made or entered inside conda's: the venv's Python runs
    start = head.rfind("\n", 0, first.start()) + 1
    end = head.find("\n", first.end())
    line = head[start : end if end >= 0 else len(head)].strip()[:200]
    return head.count("\n", 0, start), line
