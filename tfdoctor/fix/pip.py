"""The examined interpreter's pip, and nothing else: what is installed (``pip inspect``,
``pip freeze --all``), what a command would change (``pip install --dry-run --report -``), and
the change itself. Every call is ``INTERPRETER -m pip`` with a timeout."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Sequence
from typing import Optional

from tfdoctor.facts import normalize_name
from tfdoctor.pipreport import ReportError, load_report, parse_report
from tfdoctor.records import Record, record

#: Seconds one pip command may take: an install may download hundreds of MB (TensorFlow).
PIP_TIMEOUT = 1800.0
#: Seconds a read-only pip command (inspect, freeze, a dry run) may take.
PIP_QUERY_TIMEOUT = 300.0


class PipError(Exception):
    """A pip command failed, timed out or answered something unreadable."""


@record
class IndexOptions(Record):
    """Where pip may find packages (``--index-url``, ``--find-links``, ``--no-index``)."""

    index_url: Optional[str] = None
    find_links: tuple[str, ...] = ()
    no_index: bool = False

    def args(self) -> tuple[str, ...]:
        """The options as pip reads them."""
        out: list[str] = []
        if self.index_url:
            out += ["--index-url", self.index_url]
        for link in self.find_links:
            out += ["--find-links", link]
        if self.no_index:
            out.append("--no-index")
        return tuple(out)

    def where(self) -> str:
        """Where packages come from, in words: the network is named when it is used."""
        links = ", ".join(self.find_links)
        if self.no_index:
            return f"only {links} (--no-index: no network)" if links else "nowhere (--no-index)"
        index = self.index_url or "pip's configured index (PyPI unless pip.conf says otherwise)"
        return f"{index} over the network" + (f", and {links}" if links else "")


@record
class Installed(Record):
    """One installed distribution as ``pip inspect`` reports it."""

    name: str
    version: str
    requires: tuple[str, ...] = ()


@record
class Inventory(Record):
    """What is installed in the examined environment, and its PEP 508 marker values."""

    packages: tuple[Installed, ...]
    environment: tuple[tuple[str, str], ...] = ()

    def get(self, name: str) -> Optional[Installed]:
        """The installed distribution called ``name`` (normalised), if any."""
        wanted = normalize_name(name)
        return next((p for p in self.packages if normalize_name(p.name) == wanted), None)


@record
class Change(Record):
    """What a pip command does to one distribution: installs (``before`` None), removes
    (``after`` None), replaces, or reinstalls (the same version)."""

    name: str
    before: Optional[str]
    after: Optional[str]

    def shown(self) -> str:
        """The change in words."""
        if self.before is None:
            return f"install {self.name} {self.after}"
        if self.after is None:
            return f"remove {self.name} {self.before}"
        if self.before == self.after:
            return f"reinstall {self.name} {self.after}"
        return f"replace {self.name} {self.before} -> {self.after}"


def pip_env() -> dict[str, str]:
    """This environment, with pip's questions and its version check off."""
    env = dict(os.environ)
    env.update(PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1")
    env.pop("PIP_BREAK_SYSTEM_PACKAGES", None)  # never, whatever the caller's shell says
    return env


def run_pip(
    python: str,
    args: Sequence[str],
    timeout: float = PIP_QUERY_TIMEOUT,
    keep_fds: Sequence[int] = (),
) -> str:
    """``python -m pip ARGS``'s standard output; PipError with pip's last words on failure.

    ``keep_fds``: descriptors the child keeps (the fix's lock, so that a pip left running by a
    killed tfdoctor still holds it). Ctrl-C ends pip too, then is raised again.
    """
    try:
        child = subprocess.Popen(
            [python, "-m", "pip", *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=pip_env(),
            pass_fds=tuple(keep_fds),
        )
    except OSError as exc:  # no such file, not executable
        raise PipError(f"cannot run {python}: {exc.strerror or exc}") from None
    with child:
        try:
            out, err = child.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            child.kill()
            child.communicate()
            raise PipError(f"pip {args[0]} did not finish within {timeout:g} s") from None
        except BaseException:
            child.kill()
            child.wait()
            raise
    if child.returncode != 0:
        tail = err.decode(errors="replace").strip().splitlines()[-3:]
        raise PipError(f"pip {args[0]} failed (exit {child.returncode}): {' '.join(tail)}")
    return out.decode(errors="replace")


def read_inventory(python: str) -> tuple[Inventory, str]:
    """The environment's distributions and markers from ``pip inspect``, and its JSON text."""
    text = run_pip(python, ["inspect", "--local"])
    try:
        data = json.loads(text)
        packages = tuple(
            Installed(
                str(d["metadata"]["name"]),
                str(d["metadata"]["version"]),
                tuple(str(r) for r in d["metadata"].get("requires_dist", ())),
            )
            for d in data["installed"]
        )
        environment = tuple(sorted((str(k), str(v)) for k, v in data["environment"].items()))
    except (ValueError, KeyError, TypeError) as exc:
        raise PipError(f"pip inspect printed something unreadable ({exc})") from None
    return Inventory(packages, environment), text


def read_freeze(python: str) -> str:
    """``pip freeze --all``: the exact distributions installed, one a line."""
    return run_pip(python, ["freeze", "--all", "--local"])


def dry_run(
    python: str, args: Sequence[str], index: IndexOptions
) -> tuple[tuple[Change, ...], dict[str, tuple[str, ...]]]:
    """What ``pip install ARGS`` would change here, from pip's own resolver
    (``--dry-run --report -``, https://pip.pypa.io/en/stable/reference/installation-report/),
    and the declared requirements of each distribution it would install."""
    text = run_pip(
        python, ["install", "--dry-run", "--quiet", "--report", "-", *index.args(), *args]
    )
    try:
        resolved = parse_report(load_report(text))
    except ReportError as exc:
        raise PipError(f"pip's dry-run report is unreadable: {exc}") from None
    return tuple(Change(r.name, None, r.version) for r in resolved), {
        r.name: r.requires for r in resolved
    }


def with_before(changes: Sequence[Change], inventory: Inventory) -> tuple[Change, ...]:
    """``changes`` with each distribution's installed version as ``before``."""
    out = []
    for c in changes:
        have = inventory.get(c.name)
        out.append(Change(c.name, have.version if have is not None else c.before, c.after))
    return tuple(sorted(out, key=lambda c: normalize_name(c.name)))
