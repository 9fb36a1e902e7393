"""The line ``tfdoctor scan`` judges against when none is given: the installed TensorFlow's."""

from __future__ import annotations

from typing import Optional

from tfdoctor import __version__
from tfdoctor.facts import Facts, normalize_name
from tfdoctor.machine import Machine
from tfdoctor.matrix import Matrix, release_line
from tfdoctor.probes.pyenv import probe_pyenv


def default_target(
    python: str, table: Matrix
) -> tuple[str, Optional[frozenset[str]], Optional[str]]:
    """The installed TensorFlow's line (read from its metadata, never imported) and the
    environment's TensorFlow family of distributions; else the matrix's newest line. Last, the
    environment's Python version where the probe read it."""
    found = probe_pyenv(python)
    version = found.python.version if found.python is not None else None
    facts = Facts(tfdoctor_version=__version__, collected_at="", packages=found.packages)
    installed = Machine(facts, None).tf
    key = release_line(installed.version) if installed is not None else None
    # A line the matrix does not know yet (a tfdoctor older than the TensorFlow) is scanned
    # as its newest release, the nearest it can judge (a pre-release only when asked for).
    if key is not None and table.line_for(f"{key[0]}.{key[1]}") is not None:
        packages = frozenset(normalize_name(p.name) for p in found.packages or ())
        return f"{key[0]}.{key[1]}", packages, version
    newest = table.newest_release or table.lines[0]
    return newest.line, None, version
