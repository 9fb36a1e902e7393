"""Every installed distribution of an interpreter (the packages probe reports only TF's family).

The listing runs :mod:`tfdoctor.pin.installed_child` in-process for the doctor's own
interpreter and by path in another one, like the packages probe does with ``env_info``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Optional

from tfdoctor.facts import FactsError, PackageFacts, ProbeError, from_json, normalize_name
from tfdoctor.pin import installed_child
from tfdoctor.probes._run import Runner, run_command

CHILD = Path(__file__).with_name("installed_child.py")


@dataclasses.dataclass(frozen=True)
class InstalledResult:
    """The distributions, or why they could not be listed."""

    packages: Optional[tuple[PackageFacts, ...]] = None
    error: Optional[ProbeError] = None


def parse_installed(data: Any) -> InstalledResult:
    """Typed packages from the child's JSON list; a malformed document becomes an error."""
    if not isinstance(data, list):
        return InstalledResult(error=ProbeError("packages", "bad-output", "expected a list"))
    try:
        packages = tuple(
            from_json(PackageFacts, item, f"packages[{i}]") for i, item in enumerate(data)
        )
    except FactsError as exc:
        return InstalledResult(error=ProbeError("packages", "bad-output", str(exc)))
    return InstalledResult(packages=packages)


def read_installed(
    python: str,
    current: bool,
    env: Optional[Mapping[str, str]] = None,
    runner: Runner = run_command,
    timeout: float = 30.0,
) -> InstalledResult:
    """Every distribution ``python`` sees (``current``: the doctor's own); never raises."""
    if current:
        try:
            return parse_installed(installed_child.collect())
        except Exception as exc:  # a reader records, never raises
            return InstalledResult(
                error=ProbeError("packages", "crashed", f"{type(exc).__name__}: {exc}")
            )
    result = runner([python, str(CHILD)], env, timeout)
    if result.start_error is not None or result.timed_out or result.returncode != 0:
        why = result.start_error or (
            f"no answer in {timeout:g} s"
            if result.timed_out
            else f"exited with {result.signal_name or result.returncode}"
        )
        return InstalledResult(
            error=ProbeError(
                "packages",
                "child-failed",
                f"cannot list the distributions of {python}: {why}",
                result.stderr_tail(),
            )
        )
    try:
        data = json.loads(result.stdout)
    except ValueError:
        return InstalledResult(
            error=ProbeError("packages", "bad-output", f"{python} printed no JSON")
        )
    return parse_installed(data)


def merge_packages(
    known: Sequence[PackageFacts], listed: Sequence[PackageFacts]
) -> tuple[PackageFacts, ...]:
    """``known`` (the packages probe, with top-level names) plus whatever only ``listed`` has."""
    have = {normalize_name(p.name) for p in known}
    merged = [*known, *(p for p in listed if normalize_name(p.name) not in have)]
    return tuple(sorted(merged, key=lambda p: normalize_name(p.name)))
