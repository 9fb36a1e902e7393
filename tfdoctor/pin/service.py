"""``tfdoctor pin``'s service: read the environment or the target, pin it, add hashes.

The command's options (:class:`PinOptions`) checked together, the facts probed or loaded, the
target completed from this machine, and the pins from :mod:`tfdoctor.pin` (ranges offline;
exact with :mod:`tfdoctor.pin.resolve`; hashes from :mod:`tfdoctor.pin.hashes`).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Callable, Optional

from tfdoctor.compat import Target
from tfdoctor.doctor import collect_facts, smoke_verdict
from tfdoctor.facts import Facts, PackageFacts
from tfdoctor.inputs import (
    DoctorError,
    load_facts,
    open_companions,
    open_matrix,
    read_target,
    require_python,
)
from tfdoctor.machine import Machine
from tfdoctor.matrix import Companions, Matrix, TFLine
from tfdoctor.pin import Pinset, environment_pinset, needs_matrix, target_pinset
from tfdoctor.probes._run import Runner, run_command
from tfdoctor.records import Record, record


@record
class PinOptions(Record):
    """What ``tfdoctor pin`` was asked to do; any target field selects target mode."""

    #: The interpreter whose environment is pinned, or which fills a target's gaps.
    python: str = sys.executable
    all_packages: bool = False
    #: The target's Python version (``--python-version X.Y``).
    python_version: Optional[str] = None
    platform: Optional[str] = None
    cuda: Optional[str] = None
    driver: Optional[str] = None
    gpu: Optional[str] = None
    hashes: bool = False
    facts_file: Optional[str] = None
    matrix: Optional[str] = None
    #: Target mode: exact pins from pip's resolver over the package index (network, opt-in).
    resolve: bool = False
    #: The index ``--resolve`` and ``--hashes`` read (PEP 503/691); None: PyPI.
    index_url: Optional[str] = None

    @property
    def targeted(self) -> bool:
        """Whether a target field was given."""
        fields = (self.python_version, self.platform, self.cuda, self.driver, self.gpu)
        return any(v is not None for v in fields)


#: Index URL schemes pip and the hash look-up both read.
_INDEX_SCHEMES = ("https://", "http://", "file://")


def make_pins(
    options: PinOptions,
    env: Optional[Mapping[str, str]] = None,
    runner: Runner = run_command,
    fetch: Optional[Callable[[str], object]] = None,
) -> Pinset:
    """The pins ``tfdoctor pin`` writes: this environment's, or a target's.

    Raises :class:`DoctorError` on bad input, an unreachable index or a resolver that cannot
    run, and :class:`PinError` when nothing fits (or pip finds no wheels that install).
    """
    if options.targeted and options.all_packages:
        raise DoctorError("--all pins this environment; it cannot be combined with a target")
    if options.resolve and not options.targeted:
        raise DoctorError(
            "--resolve pins a target (--python-version, --platform, --cuda, --driver, --gpu) "
            "exactly; an environment's pins are exact already"
        )
    if options.index_url is not None:
        if not (options.resolve or options.hashes):
            raise DoctorError("--index-url names the index of --resolve or --hashes; give one")
        if not options.index_url.startswith(_INDEX_SCHEMES):
            raise DoctorError(
                f"--index-url {options.index_url}: expected an https://, http:// or file:// URL"
            )
    if options.facts_file is not None and options.python != sys.executable:
        raise DoctorError("--facts and --python both say which environment to read")
    if options.facts_file is not None:
        facts = load_facts(options.facts_file)
        if not options.targeted and facts.packages is not None and not facts.packages_complete:
            # Pins from such a report would silently leave out every package it does not list.
            raise DoctorError(
                f"{options.facts_file}: this report lists only TensorFlow's packages; save it "
                "with `tfdoctor check --json --against FILE`, or run pin on the machine"
            )
    else:
        require_python(options.python, env, runner, version_option=True)
        facts = collect_facts(
            options.python, True, 30.0, env, runner, all_packages=not options.targeted
        )
        listing = facts.error_for("python")
        if listing is not None and not options.targeted:
            raise DoctorError(listing.message)
    if options.targeted:
        table = open_matrix(options.matrix, env)
        target, origins = _target(table, options, facts)
        pinset = target_pins(
            table,
            target,
            facts,
            origins=origins,
            resolve=options.resolve,
            index_url=options.index_url,
            hashes=options.hashes,
            env=env,
            runner=runner,
        )
    else:
        pinset = environment_pins(facts, options.matrix, env, all_packages=options.all_packages)
    if options.hashes:
        from tfdoctor.pin.hashes import (  # noqa: PLC0415 - network, opt-in
            PYPI_SIMPLE,
            HashError,
            add_hashes,
            fetch_project_json,
        )

        index = options.index_url or PYPI_SIMPLE

        def from_index(name: str) -> object:
            return fetch_project_json(name, index)

        try:
            pinset = add_hashes(pinset, fetch or from_index)
        except HashError as exc:
            raise DoctorError(f"--hashes: {exc}") from None
    return pinset


def environment_pins(
    facts: Facts,
    matrix: Optional[str] = None,
    env: Optional[Mapping[str, str]] = None,
    *,
    all_packages: bool = False,
) -> Pinset:
    """The pins reproducing the environment ``facts`` describe, from the packages they list.

    Raises :class:`PinError` when nothing fits, :class:`DoctorError` for an unusable matrix.
    """
    # The matrix costs a YAML parse; the installed metadata usually says all it would.
    lines = open_matrix(matrix, env) if needs_matrix(facts) else None
    return environment_pinset(
        facts, lines, all_packages=all_packages, smoke_verdict=smoke_verdict(facts)
    )


def target_pins(
    table: Matrix,
    target: Target,
    facts: Facts,
    *,
    line: Optional[TFLine] = None,
    origins: Optional[Mapping[str, str]] = None,
    resolve: bool = False,
    index_url: Optional[str] = None,
    hashes: bool = False,
    env: Optional[Mapping[str, str]] = None,
    runner: Runner = run_command,
) -> Pinset:
    """A target's pins (``line``, else the newest line that fits), with the companions
    installed in ``facts`` kept in step; exact from pip's resolver with ``resolve``.

    Raises :class:`PinError` when the line does not fit, :class:`DoctorError` when the
    resolver cannot run or the index cannot be reached.
    """
    pinset = target_pinset(table, target, origins, _installed_companions(facts), line=line)
    if not resolve:
        return pinset
    from tfdoctor.pin.resolve import (  # noqa: PLC0415 - network, opt-in
        ResolveError,
        resolve_target,
    )

    try:
        return resolve_target(
            pinset, target, table, run=runner, index_url=index_url, env=env, hashes=hashes
        )
    except ResolveError as exc:
        raise DoctorError(f"--resolve: {exc}") from None


def _installed_companions(facts: Facts) -> Optional[tuple[Companions, tuple[PackageFacts, ...]]]:
    """The companion table and this environment's packages, which a target's pins keep in
    step with the target's TensorFlow."""
    return (open_companions(), tuple(facts.packages)) if facts.packages else None


def _target(matrix: Matrix, options: PinOptions, facts: Facts) -> tuple[Target, dict[str, str]]:
    """The target: the given fields, the rest from this machine (its GPU only on its own OS)."""
    here = Machine(facts, None).target
    given = read_target(
        matrix,
        python=options.python_version,
        platform=options.platform,
        cuda=options.cuda,
        driver=options.driver,
        gpu=options.gpu,
    )
    origins: dict[str, str] = {}
    values: dict[str, Optional[str]] = {}
    same_os = given.platform is None or (
        here.platform is not None and given.platform.split("-")[0] == here.platform.split("-")[0]
    )
    for field in ("python", "platform", "cuda", "driver", "gpu"):
        value = getattr(given, field)
        if value is not None:
            values[field], origins[field] = value, "given"
            continue
        mine = getattr(here, field)
        if field in ("driver", "gpu") and not same_os:
            mine = None
        values[field] = mine
        if mine is not None:
            origins[field] = "this machine"
    # This machine's driver under WSL is the Windows host's, numbered as Windows drivers.
    wsl = here.wsl and origins.get("driver") == "this machine"
    return Target(**values, wsl=wsl), origins
