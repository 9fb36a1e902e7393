"""The one way fixes list a package's releases: ``pip index versions``, which pip 21.2 added,
after upgrading a pip the facts or the log show older."""

from __future__ import annotations

from typing import Optional

import pytest

from tests import factories as f
from tests.explaining import explained
from tfdoctor.facts import Facts
from tfdoctor.machine import LogHints, Machine


def _probed(pip: Optional[str]) -> Machine:
    return Machine(f.facts(python=f.python(pip_version=pip)), f.FIXTURE_MATRIX)


def _from_log(pip: Optional[str]) -> Machine:
    bare = Facts(tfdoctor_version="0", collected_at="2026-01-01T00:00:00+00:00")
    return Machine(bare, f.FIXTURE_MATRIX, LogHints(os="linux", pip=pip))


@pytest.mark.parametrize("machine", [_probed, _from_log])
def test_a_pip_with_index_versions_lists_at_once(machine: type) -> None:
    commands = machine("21.2")
    listing = commands.list_releases("tensorflow-text")
    assert len(listing) == 1 and listing[0].endswith("pip index versions tensorflow-text")


@pytest.mark.parametrize("machine", [_probed, _from_log])
def test_an_older_pip_is_upgraded_first(machine: type) -> None:
    listing = machine("20.3.4").list_releases("tensorflow-text")
    assert len(listing) == 2
    assert listing[0].endswith("pip install --upgrade pip")
    assert listing[1].endswith("pip index versions tensorflow-text")


def test_an_unknown_pip_is_not_assumed_old() -> None:
    listing = _from_log(None).list_releases("tensorflow-io")
    assert listing == ("pip index versions tensorflow-io",)


def test_the_pip_a_log_shows_reaches_a_fix_that_lists_releases() -> None:
    # pip 20.2's refusal of a pinned release it lists others of (pip shows itself in the
    # notice it prints after an error).
    log = (
        "ERROR: Could not find a version that satisfies the requirement "
        "tensorflow-text==2.4.0 (from versions: 2.5.0, 2.6.0, 2.7.0)\n"
        "ERROR: No matching distribution found for tensorflow-text==2.4.0\n"
        "WARNING: You are using pip version 20.2.4; however, version 21.3.1 is available.\n"
        "You should consider upgrading via the '/usr/bin/python3 -m pip install --upgrade pip' "
        "command.\n"
    )
    fixes = [x.fix.commands for x in explained(log).findings if x.fix is not None]
    listing = [c for c in fixes if any("index versions" in x for x in c)]
    assert listing, fixes
    for commands in listing:
        first = next(i for i, x in enumerate(commands) if "index versions" in x)
        assert any("install --upgrade pip" in x for x in commands[:first]), commands


@pytest.mark.parametrize("python", ["3.5.2", "2.7.18"])
def test_a_python_no_pip_with_index_versions_runs_on_lists_by_pips_refusal(python: str) -> None:
    # pip 21.0 dropped Python 2.7 and 3.5: an upgrade there stops at pip 20.3.4.
    bare = Facts(tfdoctor_version="0", collected_at="2026-01-01T00:00:00+00:00")
    machine = Machine(bare, f.FIXTURE_MATRIX, LogHints(os="linux", pip="9.0.1", python=python))
    listing = machine.list_releases("tensorflow-gpu")
    assert not any("index versions" in x for x in listing), listing
    assert listing[-1].endswith('pip install "tensorflow-gpu=="')


def test_the_python_pips_refusal_names_reaches_the_listing() -> None:
    log = (
        "You are using pip version 9.0.1, however version 20.0 is available.\n"
        "ERROR: Package 'tensorflow-addons' requires a different Python: 3.5.2 not in '>=3.6'\n"
    )
    fixes = [x.fix.commands for x in explained(log).findings if x.fix is not None]
    assert fixes and not any("index versions" in x for c in fixes for x in c), fixes
    assert any('pip install "tensorflow-addons=="' in x for c in fixes for x in c), fixes
