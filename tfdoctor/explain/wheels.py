"""Builders for installs: pip's and other installers' refusals, wheels and Pythons."""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Optional

from tfdoctor import causes
from tfdoctor.evidence.installer import Installer, read_installer
from tfdoctor.evidence.macos import APPLE, INTEL, python_machine
from tfdoctor.evidence.pip import (
    PipKind,
    PipRefusal,
    PythonRefusal,
    WheelRefusal,
    read_missing_wheel,
    read_pip_line,
    read_refusals,
    read_unmatched,
    read_wheel_refusal,
    refusal_requirer,
    requested_version,
)
from tfdoctor.evidence.traceback import bare_python_and_pip
from tfdoctor.explain.common import _cite_head, _rule_named, cite, group
from tfdoctor.explain.environments import macos_wheels_only
from tfdoctor.explain.packages import distributions_fix
from tfdoctor.explain.platform import (
    matrix_platform_of_tags,
    pip_blind_to_wheel,
    pip_reading_glibc,
)
from tfdoctor.explain.revealed import Revealed
from tfdoctor.explain.scanning import _OS_TEXT, Evidence, Hits
from tfdoctor.explain.software import _FRAME_FILE
from tfdoctor.facts import TF_DISTRIBUTIONS, normalize_name
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.machine import Machine
from tfdoctor.matrix import Matrix, spec_contains, version_key
from tfdoctor.modules import modules
from tfdoctor.signatures import (
    ABI_TAG,
    INDEX_NOT_PYPI,
    INDEX_UNREAD,
    ONE_RELEASE,
    PATTERN_PARTS,
    TF_DISTRIBUTION,
)
from tfdoctor.wheel_index import python_span, releases_of
from tfdoctor.wheel_tags import MANYLINUX1_GLIBC, manylinux_name, tag_machines


def _metadata_unsatisfiable(
    m: Machine, r: Revealed, hits: Sequence[Hits]
) -> tuple[causes.CauseId, Fix]:
    """TensorFlow's own requirement of a companion the resolver could not meet, told in the
    terms of the resolver that printed it (:func:`installer_of`)."""
    tool = installer_of(hits).tool
    return causes.software.TF_METADATA_UNSATISFIABLE, causes.software.metadata_unsatisfiable_fix(
        m,
        group(hits, "companion") or "the companion",
        group(hits, "spec") or "",
        group(hits, "marker") or "",
        group(hits, "required_by") or "",
        tool if tool in ("poetry", "pip-tools") else "uv",
    )


def _unpublished_pin(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """A resolver's word that no version of a distribution matches the project's requirement
    at all (not one without files for this Python): the release is not published. The
    newest release this package knows of (the matrix's for TensorFlow, the bundled wheel
    index's for a companion) is the pin the fix offers."""
    dist = normalize_name(group(hits, "dist") or "")
    spec = group(hits, "spec") or ""
    installer = installer_of(hits, r.installer)
    resolver = "poetry" if installer.tool == "poetry" else installer.interface or "uv"
    known: tuple[str, ...] = ()
    python = ""
    if m.matrix is not None and dist == "tensorflow":
        # The newest line with a wheel for the log's Python (the matrix lists each line's):
        # a newer one's pin could not install there either.
        python = r.python or ""
        newest = m.matrix.newest_with_wheels(python)
        known = (newest.latest_patch,) if newest is not None else ()
    elif releases_of(dist):
        known = tuple(x.version for x in releases_of(dist))
    # uv's hint where the releases exist but were not considered: its "no version" then says
    # nothing of what the index publishes.
    aside = next((x for x in r.set_aside if x.dist == dist), None) if resolver != "poetry" else None
    if aside is not None:
        return causes.software.PINNED_RELEASE_NOT_PUBLISHED, causes.software.set_aside_pin_fix(
            dist, spec, resolver, aside.reason, aside.index
        )
    return causes.software.PINNED_RELEASE_NOT_PUBLISHED, causes.software.unpublished_pin_fix(
        dist or "the package", spec, resolver, known, python
    )


#: The distributions whose refused wheels this cause is about (pip-unsupported-wheel's).
_TF_WHEEL = re.compile(PATTERN_PARTS["{{tf_wheel}}"], re.IGNORECASE)


def _shown_64bit(r: Revealed) -> bool:
    """Whether the interpreter's own words show a 64-bit build: its banner's build string
    (:func:`tfdoctor.evidence.pip.read_python_64bit`), pip's tags or its answer to a width
    query (:attr:`tfdoctor.evidence.interpreter.Interpreter.bits`). A 32-bit cause is ruled
    out there."""
    return r.python_64bit or (r.interpreter is not None and r.interpreter.bits == 64)


def _not_installed(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """TensorFlow not installed: where the log's paths show a Python no release has a wheel
    for on their system (the matrix's lines and early releases), "install it" fails whatever
    the pip, so the reading is the missing wheel's; else the install by the pip of the
    interpreter that ran (the command the shell ran, where the log shows it)."""
    wheelless = causes.platform.no_release_in_log_fix(m)
    if wheelless is not None:
        return causes.platform.TF_NO_WHEEL_FOR_PYTHON, wheelless
    return (
        causes.software.TF_NOT_INSTALLED,
        causes.software.tensorflow_install_fix(m, r.python_command or "python"),
    )


def _windows_wheel_refused(
    m: Machine, r: Revealed, hits: Sequence[Hits], wheel: WheelRefusal
) -> Optional[tuple[causes.CauseId, Fix]]:
    """pip finding no TensorFlow at all and refusing its 64-bit Windows ``wheel``, where the
    Python the log shows (if any) is the wheel's and nothing shows it 64-bit: the user picks
    the wheel of their own CPython, so the interpreter is 32-bit, which python.org's default
    Windows download was until 3.9 (TensorFlow has only 64-bit wheels). Where the log shows
    no Python version and the release's Windows wheels are for the wheel's Python alone, the
    file says nothing of the user's Python (there was no other to pick): another version
    leads, 32 bits the candidate beside it. None elsewhere."""
    shown = ".".join((r.python or "").split(".")[:2])
    if (
        wheel.platform != "win_amd64"
        or not _no_release_at_all(r, hits)
        or (shown and wheel.python_version != shown)
        # Not where the interpreter's own words (its build string, pip's tags) say 64-bit.
        or _shown_64bit(r)
    ):
        return None
    either = (
        causes.platform.windows_wheel_unknown_python_fix(
            m, wheel.file, wheel.dist, wheel.version, wheel.python_version or ""
        )
        if not shown
        else None
    )
    if either is not None:
        return causes.platform.TF_NO_WHEEL_FOR_PYTHON, either
    return causes.platform.PYTHON_32BIT, causes.platform.python_64bit_fix(m)


def _mistyped_pin(m: Machine, r: Revealed) -> Optional[tuple[causes.CauseId, Fix]]:
    """A pin whose version ends in characters no version holds, of a release pip lists: the
    pin is mistyped, whatever the Python or platform. Only where each refusal the log shows
    is such a pin: another refusal beside it keeps its own reading."""
    if not r.pip_refusals or not all(x.mistyped_release for x in r.pip_refusals):
        return None
    refusal = r.pip_refusals[0]
    release = refusal.mistyped_release or ""
    return causes.software.PINNED_RELEASE_NOT_PUBLISHED, causes.software.mistyped_pin_fix(
        m, normalize_name(refusal.dist), refusal.spec, release
    )


def _no_wheel(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """The cause and fix of pip's (or another resolver's) "no matching distribution": a
    mistyped pin first (:func:`_mistyped_pin`), then what pip's words show."""
    return _mistyped_pin(m, r) or _no_wheel_read(m, r, hits)


def _no_wheel_read(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    # pip's own words say what it could see: reason from them before any general advice.
    lines = [line for h in hits for _, line in h.citations]
    wheel = next((w for w in map(read_wheel_refusal, lines) if w is not None), None)
    # Else a TensorFlow wheel the pip command named (a paste that kept only pip's message).
    wheel = wheel or next((w for w in r.wheel_refusals if _TF_WHEEL.match(w.dist)), None)
    windows = _windows_wheel_refused(m, r, hits, wheel) if wheel is not None else None
    if windows is not None:
        return windows
    blind = pip_blind_to_wheel(m, r, wheel) if wheel is not None else None
    if blind is not None:
        return causes.platform.PIP_TOO_OLD, blind
    if wheel is not None:
        # A file handed to pip by name or URL: pip did not look for a wheel, it refused this
        # one, built for another interpreter or platform.
        return causes.platform.WHEEL_MISMATCH, causes.platform.wheel_tags_fix(
            m,
            wheel.file,
            wheel.python_version,
            wheel.platform,
            wheel.abi,
            matrix_platform_of_tags(wheel.platform),
        )
    tags = _interpreter_tags(m, r, hits)
    if tags is not None:
        return tags
    hint = next((x for x in r.abi_hints if x.dist in TF_DISTRIBUTIONS), None)
    if hint is not None:
        # uv's hint, on its own line below the refusal, names the interpreter and the Python
        # tags of the release's wheels: a pin of that release, or no release, fits this Python.
        one_release = any(ONE_RELEASE in h.signature.tags for h in hits)
        return (
            causes.platform.TF_RELEASE_NOT_FOR_PYTHON
            if one_release
            else causes.platform.TF_NO_WHEEL_FOR_PYTHON,
            causes.platform.resolver_release_fix(
                hint.dist,
                hint.version,
                hint.python,
                hint.tags,
                (),
                installer_of(hits, r.installer).interface,
                hint.implementation,
                hint.variant,
            ),
        )
    yanked = _yanked_placeholder(m, r, hits)
    if yanked is not None:
        return causes.platform.TF_NO_WHEEL_FOR_PYTHON, yanked
    abi = _abi_tag_refusal(m, r, hits)
    if abi is not None:
        return causes.platform.TF_NO_WHEEL_FOR_PYTHON, abi
    chosen = _resolver_release(hits, r, m)
    if chosen is not None:
        return causes.platform.TF_RELEASE_NOT_FOR_PYTHON, chosen
    if (platform := _platform_refusal(r, hits)) is not None:
        return causes.platform.TF_NO_WHEEL_FOR_PYTHON, platform
    unprefixed = _unprefixed_refusal(m, r, hits)
    if unprefixed is not None:
        return causes.platform.PIP_TOO_OLD, unprefixed
    skipped = _skipped_for_python(m, r)
    if skipped is not None:
        return skipped
    refused = _release_refused(r)
    if refused is not None:
        dist, asked, release = refused
        return causes.platform.TF_RELEASE_NOT_FOR_PYTHON, causes.platform.release_line_fix(
            m, dist, asked, release
        )
    refusals = [x for x in r.pip_refusals if x.dist in TF_DISTRIBUTIONS]
    jetson = next((x for x in refusals if _NVIDIA_LOCAL.search(x.spec or "")), None)
    if jetson is not None:
        # A +nvYY.MM release is NVIDIA's build for Jetson, only on NVIDIA's index of one
        # JetPack release, which drops old builds: not a Python without wheels.
        return causes.platform.TF_RELEASE_NOT_FOR_PYTHON, causes.platform.jetson_index_fix(
            normalize_name(jetson.dist), jetson.spec
        )
    wrapper = _refused_wrapper(m, r)
    if wrapper is not None:
        return causes.platform.TF_NO_WHEEL_FOR_PYTHON, wrapper
    companion = _refused_companion(r, hits)
    if companion is not None:
        return _metadata_refused(m, r, hits, companion) or _companion_refused(m, r, hits, companion)
    if not refusals:
        return causes.platform.TF_NO_WHEEL_FOR_PYTHON, causes.platform.no_wheel_fix(m)
    refusal = refusals[0]
    pinned = requested_version(refusal.spec)
    if r.os in ("linux", "windows") and macos_wheels_only(normalize_name(refusal.dist)):
        # Apple's build asked for on another system: its wheels are macOS's alone, so no
        # Python, pip or pin there finds one (none of the readings below, of
        # Pythons, ranges, pips or macOS, apply).
        return causes.platform.TF_NO_WHEEL_FOR_PYTHON, causes.platform.macos_only_dist_fix(
            m, normalize_name(refusal.dist), r.os, pinned, r.machine
        )
    if (silicon := _apple_silicon_refusal(m, r, refusal)) is not None:
        return silicon
    if (ranged := _range_refusal(m, r, refusal)) is not None:
        return ranged
    if (machine := _machine_refusal(m, r, refusal)) is not None:
        return machine
    if (
        r.pip_version
        and version_key(r.pip_version) < causes.platform.PIP_MANYLINUX2010
        and (pinned is None or version_key(pinned) >= (1, 15))
        and r.os in (None, "linux")
    ):
        # Every Linux wheel of TensorFlow since 1.15 and 2.0 carries the manylinux2010 tag
        # or a newer one: a pip before 19.0 lists none of them (Windows' and macOS' tags it
        # reads; an older release's refusal is about its Pythons).
        return causes.platform.PIP_TOO_OLD, causes.platform.pip_upgrade_fix(
            m,
            f"The log shows pip {r.pip_version}, older than 19.0, the first that reads the "
            "platform tags of TensorFlow's wheels since 1.15 and 2.0 (manylinux2010), so pip "
            "lists only older releases, or none.",
            pip=r.pip_version,
        )
    blind = _blind_to_newer_manylinux(m, r, refusal)
    if blind is not None:
        return causes.platform.PIP_TOO_OLD, blind
    if (
        r.pip_version
        and version_key(r.pip_version) < causes.platform.PIP_MACOS11
        and r.os == "macos"
        and not refusal.versions
        and r.python
        and _python_has_macos_wheels(m, r.python)
    ):
        # pip lists no TensorFlow at all for a Python that has macOS wheels, and it is older
        # than the first pip that reads macOS 11's tags: on macOS 11 and later that pip finds
        # no macOS wheel of anything (elsewhere it would list releases for this Python).
        return causes.platform.PIP_TOO_OLD, causes.platform.macos11_pip_fix(
            m, r.pip_version, r.python
        )
    if (
        normalize_name(refusal.dist) == "tensorflow-macos"
        and refusal.shown
        and not refusal.versions
    ):
        # Apple's own build lists no release at all: its wheels' macOS 11 tags are what an
        # interpreter reporting 10.16, or an older pip, does not read (not only the Python).
        pythons = {py for row in releases_of("tensorflow-macos") for py in row.pythons}
        return causes.platform.TF_NO_WHEEL_FOR_PYTHON, causes.platform.macos_wrapper_fix(
            m, r.python, r.pip_version, sorted(pythons, key=version_key)
        )
    cause, fix, _ = causes.platform.pip_refusal_fix(
        m,
        refusal.final_versions or refusal.versions,
        requested_version(refusal.spec),
        r.python,
        normalize_name(refusal.dist),
        refusal.shown,
        # TensorFlow's own requirement of a build of it (tensorflow-intel from tensorflow) is
        # its metadata's, not a dependant's pin: pip's reading of its list stands.
        "" if refusal.required_by in TF_DISTRIBUTIONS else refusal.required_by,
        r.python_64bit,
    )
    return cause, fix


def _metadata_refused(
    m: Machine, r: Revealed, hits: Sequence[Hits], companion: str
) -> Optional[tuple[causes.CauseId, Fix]]:
    """Cause and fix where pip refused a requirement that a release of TensorFlow itself
    declares (pip's "(from tensorflow==V)") of a companion of its family whose wheels are pure
    Python (the module table's: tensorflow-estimator, tensorboard, keras and their nightlies,
    released beside TensorFlow): such a wheel fits every platform and the Pythons TensorFlow's
    own wheel serves, so with the index read (a refusal after an unread one is dropped before
    this) pip found no release in TensorFlow's range at all, the metadata asking for a
    companion release the index does not offer (a release candidate, or a build of
    TensorFlow's source, ahead of the companion's release). None where the requirer is no
    TensorFlow distribution, the companion is native (its wheels' Pythons and platforms are
    the question), pip's list holds a release in the range, the requirer is a final release
    (pip's "(from Y==V)", else the log's: published with its companions, the index pip read
    lacks them), or the log's Python is one the TensorFlow release has no wheel for (the
    companion's Requires-Python may be the refusal)."""
    table = modules()
    release = table.release_of(companion)
    if release not in {table.dists[x] for x in table.family} or release in table.native:
        return None
    lines = [line for h in hits for _, line in h.citations]
    requirer = next(
        (
            q[1]
            for q in map(refusal_requirer, lines)
            if q is not None and q[0] == companion and q[1].dist in TF_DISTRIBUTIONS
        ),
        None,
    )
    if requirer is None:
        return None
    refusal = next((x for x in r.pip_refusals if normalize_name(x.dist) == companion), None)
    spec = refusal.spec if refusal is not None else _unmatched_spec(companion, lines) or ""
    if not spec:
        # TensorFlow's setup.py declares each companion with a range: a bare name found in
        # no release at all is an index without the project, not a release the range missed.
        return None
    if refusal is not None and any(spec_contains(v, spec) for v in refusal.versions):
        return None  # pip saw a release in the range: something else refused it
    tf_version = requirer.release or r.tf_version
    own = r.tf_dist is None or normalize_name(r.tf_dist) == requirer.dist
    if (requirer.release or own) and tf_version and not causes.software.is_prerelease(tf_version):
        # A final release of TensorFlow's (pip's "(from Y==V)", else the log's release of the
        # requirer), published with the companions its metadata asks for: an index without
        # any is the one pip read (a mirror, a private index, --no-index, an index it could
        # not read), not the metadata, which only a release candidate or a nightly asks ahead
        # of the companion's release.
        return None
    line = m.matrix.line_for(tf_version) if m.matrix is not None and tf_version else None
    if r.python and line is not None and not line.has_wheels_for(r.python):
        return None
    named = f"{requirer.dist} {requirer.release}".strip()
    return causes.software.TF_METADATA_UNSATISFIABLE, causes.software.metadata_unsatisfiable_fix(
        # pip names the requirer's release only before 20.3 (its "(from Y==V)").
        m,
        companion,
        spec,
        "",
        named,
        "pip",
        old_pip=bool(requirer.release),
    )


def _companion_refused(
    m: Machine, r: Revealed, hits: Sequence[Hits], companion: str
) -> tuple[causes.CauseId, Fix]:
    """Cause and fix where only distributions outside TensorFlow's own were refused: a
    companion's refusal read with the bundled index, any other package's from its words
    (:func:`_package_refused`)."""
    if causes.software.unknown_package(companion) and not _TF_WHEEL.match(
        # TensorFlow's own runtimes and Coral's library, named as its wheels are: companions.
        companion.replace("-", "_")
    ):
        return _package_refused(m, r, hits, companion)
    lines = [line for h in hits for _, line in h.citations]
    refusal_of = next((x for x in r.pip_refusals if normalize_name(x.dist) == companion), None)
    listed = refusal_of.final_versions if refusal_of is not None else ()
    published = _unmatched_published(companion, lines) if refusal_of is None else None
    if published is not None:
        # A range of releases PyPI publishes, and pip (its list not shown) found none of
        # them to install: those releases have no wheel for this Python and platform.
        return (
            causes.platform.TF_RELEASE_NOT_FOR_PYTHON,
            causes.software.companion_no_wheel_fix(m, companion, (), False, published),
        )
    pinned = requested_version(refusal_of.spec) if refusal_of is not None else None
    if (
        pinned is not None
        and refusal_of is not None
        # pip's own list, where it shows releases, is read against the pin below.
        and not refusal_of.versions
        and releases_of(companion)
        # A release newer than the index's newest may have come out after it was generated:
        # the bundled index says nothing of it.
        and version_key(pinned) < version_key(releases_of(companion)[-1].version)
        and not causes.software.releases_published(companion, f"=={pinned}")
    ):
        # A pin of a release PyPI's files never listed, older than the newest they list
        # (tflite-runtime before 2.5 came from Coral's own index,
        # https://google-coral.github.io/py-repo/): pip refuses it for any
        # Python; the pin is what to change.
        return (
            causes.platform.TF_RELEASE_NOT_FOR_PYTHON,
            causes.software.unpublished_release_fix(m, companion, pinned),
        )
    if refusal_of is not None and refusal_of.spec and refusal_of.versions:
        # A release asked for while pip lists others: that release has no wheel here.
        return causes.platform.TF_RELEASE_NOT_FOR_PYTHON, causes.software.pinned_companion_fix(
            m, companion, refusal_of.spec, refusal_of.versions
        )
    chosen = _chosen_release(hits, companion) if refusal_of is None else None
    if chosen is not None:
        # uv's or Poetry's words name the one release it chose: that release's wheels
        # (no wheel of the companion for this Python and platform, as pip's refusal reads).
        return (
            causes.platform.TF_NO_WHEEL_FOR_PYTHON,
            causes.software.companion_no_wheel_fix(
                m,
                companion,
                (),
                False,
                f"=={chosen}",
                installer_of(hits).finder,
                # uv's words of the platform tag (not the Python's ABI tag).
                platform_only=any(h.signature.id == _UV_RELEASE_PLATFORM for h in hits),
                manylinux_arch=_manylinux_arch(r.tags_platform or ""),
            ),
        )
    # Without pip's list, the specifier its last line names (a release no index lists).
    said = _unmatched_spec(companion, lines) if refusal_of is None else None
    return causes.platform.TF_NO_WHEEL_FOR_PYTHON, causes.software.companion_no_wheel_fix(
        m,
        companion,
        listed,
        refusal_of.shown if refusal_of is not None else not said,
        refusal_of.spec if refusal_of is not None else said or "",
        "pip" if refusal_of is not None else installer_of(hits).finder,
        unworded=refusal_of is not None and refusal_of.unworded,
    )


def _package_refused(
    m: Machine, r: Revealed, hits: Sequence[Hits], dist: str
) -> tuple[causes.CauseId, Fix]:
    """Cause and fix where the refused distribution is one nothing bundled describes (an
    application or library around TensorFlow): a pin pip's list leaves out, or the one release
    a resolver chose, is that release's refusal (another release, or a Python it supports);
    no release listed is every release's (a Python or platform its files list)."""
    refusal = next((x for x in r.pip_refusals if normalize_name(x.dist) == dist), None)
    if refusal is not None and refusal.spec and refusal.versions:
        return causes.platform.TF_RELEASE_NOT_FOR_PYTHON, causes.software.pinned_package_fix(
            m,
            dist,
            refusal.spec,
            requested_version(refusal.spec),
            refusal.final_versions or refusal.versions,
            refusal.required_by,
            stated=_python_stated(r),
        )
    chosen = _chosen_release(hits, dist)
    if refusal is None and chosen is not None:
        # uv's or Poetry's words name the release it chose: that release has no file here (a
        # companion's reads so too: no wheel of the package for this Python and platform).
        hinted = next((x.platforms for x in r.platform_hints if x.dist == dist), ())
        return causes.platform.TF_NO_WHEEL_FOR_PYTHON, causes.platform.resolver_release_fix(
            dist, chosen, r.python, (), hinted
        )
    shown = refusal.shown if refusal is not None else False
    spec = refusal.spec if refusal is not None else ""
    lines = [line for h in hits for _, line in h.citations]
    required_by = refusal.required_by if refusal is not None else ""
    return causes.platform.TF_NO_WHEEL_FOR_PYTHON, causes.software.package_no_wheel_fix(
        m,
        dist,
        spec or (_unmatched_spec(dist, lines) or ""),
        shown,
        required_by,
        # Nothing but pip's empty list: a name PyPI does not have reads the same.
        alone=shown and not required_by and not r.python and not r.os and not r.known(),
        installer="pip" if refusal is not None else installer_of(hits).finder,
        stated=_python_stated(r),
    )


def installer_of(hits: Sequence[Hits], shown: Optional[str] = None) -> Installer:
    """The installer whose words the refusal is in, and uv's interface (``uv pip``, ``uv``: a
    project), read once from the signatures' tags and the lines they cite
    (:func:`tfdoctor.evidence.installer.read_installer`): every fix builder asks this.
    ``shown``: the installer the whole log shows (:attr:`Revealed.installer`); uv's words in a
    pixi workspace are its PyPI resolver's, so their interface there is ``pixi``'s."""
    installer = read_installer(
        {t for h in hits for t in h.signature.tags},
        "\n".join(line for h in hits for _, line in h.citations),
    )
    return Installer("uv", "pixi") if installer.uv and shown == "pixi" else installer


def _chosen_release(hits: Sequence[Hits], dist: str) -> Optional[str]:
    """The release of ``dist`` a resolver (uv, Poetry) chose and found no file of, as its
    words name it; None where they name none."""
    return next(
        (
            g["tf_version"]
            for h in hits
            if ONE_RELEASE in h.signature.tags
            for g in h.groups
            if normalize_name(g.get("dist") or "") == dist and g.get("tf_version")
        ),
        None,
    )


def _python_stated(r: Revealed) -> bool:
    """Whether the log states the Python's version (not only implies it by its paths)."""
    return bool(r.python) and all(hint.fact != "python" for hint in r.inferred)


#: pip's refusals of distributions outside TensorFlow's family (signatures.yaml).
_OTHER_REFUSALS = frozenset(
    {"pip-no-version-satisfies-other", "pip-no-matching-distribution-other"}
)
#: pip's refusals of TensorFlow's distributions and companions (signatures.yaml).
_TF_REFUSALS = frozenset({"pip-no-version-satisfies", "pip-no-matching-distribution"})


def _drop_unread_refusals(by_cause: dict[str, list[Hits]], evidence: Evidence) -> None:
    """pip's refusal says no wheel fits only where pip read the index and its releases: not
    after pip retried a broken connection or could not fetch a page of the index (the
    network, a proxy or a certificate, which no network signature may read: what pip saw is
    then unknown, unless it lists releases all the same) or after it read an index of the
    user's own or none (--no-index: what that index or directory holds, a build backend such
    as setuptools left out of it, is not what PyPI's files say of the Python), for
    TensorFlow's distributions and any other; nor, for a distribution outside TensorFlow's
    family, where pip lists no release and says it skipped yanked ones (PEP 592: the project
    withdrew them, no Python or platform changes that; a yanked placeholder of TensorFlow's
    family is _yanked_placeholder's)."""
    hits = by_cause.get(causes.platform.TF_NO_WHEEL_FOR_PYTHON)
    if not hits:
        return
    unreached = [h.first for h in evidence.hits.values() if INDEX_UNREAD in h.signature.tags]
    not_pypi = [h.first for h in evidence.hits.values() if INDEX_NOT_PYPI in h.signature.tags]
    yanked = "pip-yanked-ignored" in evidence.hits and any(
        x.shown and not x.versions for x in evidence.refusals
    )

    read = {normalize_name(x.dist) for x in evidence.refusals}

    def unread(h: Hits) -> bool:
        if h.signature.id == "piptools-no-matching-tf":
            # pip-tools' words with no refusal read from them: requirements that exclude each
            # other (evidence.pip's _clashing), not a release without a wheel here.
            return not any(normalize_name(g.get("dist", "")) in read for g in h.groups)
        # A retry that then got through: pip's list of releases says it read the index.
        listed = any(x.versions for x in read_refusals(line for _, line in h.citations))
        failed = [] if listed else unreached
        before = any(first <= h.first for first in (*failed, *not_pypi))
        if h.signature.id in _TF_REFUSALS and before:
            return True
        return h.signature.id in _OTHER_REFUSALS and (yanked or before)

    kept = [h for h in hits if not unread(h)]
    if kept:
        by_cause[causes.platform.TF_NO_WHEEL_FOR_PYTHON] = kept
    else:
        del by_cause[causes.platform.TF_NO_WHEEL_FOR_PYTHON]


def _manylinux_arch(tag: str) -> str:
    """The architecture a manylinux platform tag names (``aarch64`` of
    ``manylinux_2_35_aarch64``), or "" for another tag."""
    machines = tag_machines(tag) if tag.startswith("manylinux") else ()
    return machines[0] if len(machines) == 1 else ""


def _apple_silicon_refusal(
    m: Machine, r: Revealed, refusal: PipRefusal
) -> Optional[tuple[causes.CauseId, Fix]]:
    """Cause and fix where pip lists no TensorFlow release (or the log shows no list) on a Mac
    the log shows to be Apple silicon: the matrix's Pythons of the Linux, Windows and Intel Mac
    wheels say nothing there, since the ``tensorflow`` distribution has macOS arm64 wheels only
    from the first line the matrix gives them (2.13); before it, Apple's tensorflow-macos
    (:func:`causes.platform.apple_silicon_fix`). None where pip lists releases of lines
    without arm64 wheels (an x86-64 Python under Rosetta 2 sees the Intel wheels), for a range
    that admits no such line, or on a Mac not shown to be Apple's. A list of only releases
    from the first arm64 line on, beside a pin before it, is pip's own word that the Python is
    arm64: an Intel one would list the pin's Intel wheels too."""
    if (
        m.matrix is None
        or r.mac is None
        or r.mac.value != APPLE
        or r.os not in (None, "macos")
        or normalize_name(refusal.dist) not in ("tensorflow", "tensorflow-cpu", "tensorflow-gpu")
    ):
        return None
    arm64 = sorted(
        (x for x in m.matrix.lines if x.python.get("macos-arm64") and not x.pre_release),
        key=lambda x: version_key(x.line),
    )
    if not arm64:
        return None
    first = arm64[0].line
    asked = requested_version(refusal.spec)
    if refusal.final_versions and (
        asked is None
        or version_key(asked)[:2] >= version_key(first)[:2]
        or any(version_key(v)[:2] < version_key(first)[:2] for v in refusal.final_versions)
    ):
        return None
    if asked is None and refusal.spec and not spec_contains(f"{first}.0", refusal.spec):
        return None  # a range of older releases only: _range_refusal reads their Pythons
    pinned = m.matrix.line_for(asked) if asked is not None else None
    if (
        refusal.final_versions
        and r.python
        and pinned is not None
        and not pinned.has_wheels_for(r.python)
    ):
        # A list from the first arm64 line on beside a pin for no Python like the one shown
        # (3.12 beside 2.12.0, 3.8-3.11) is that Python's refusal: the pin's line with one of
        # its Pythons is the fix, which the Python's reading gives.
        return None
    pythons = sorted({py for x in arm64 for py in x.python["macos-arm64"]}, key=version_key)
    fix = causes.platform.apple_silicon_fix(m, asked, first, pythons, r.python)
    if fix is None:
        return None
    # pip's empty list of the user's own request says no release at all has a wheel here;
    # a list of newer ones, that the pinned release has none.
    return (
        causes.platform.TF_NO_WHEEL_FOR_PYTHON
        if refusal.shown and not refusal.required_by and not refusal.final_versions
        else causes.platform.TF_RELEASE_NOT_FOR_PYTHON
    ), fix


def _range_refusal(
    m: Machine, r: Revealed, refusal: PipRefusal
) -> Optional[tuple[causes.CauseId, Fix]]:
    """Cause and fix where pip refused a range of old TensorFlow releases, none with a wheel
    for this interpreter: their Pythons (:func:`causes.platform.range_release_fix`). pip's
    empty list of the user's own request says no release at all has one here; a dependant's
    range, or a list of releases outside it, is that range's refusal. None for a pin, or a
    range the log's Python or pip's list does not single out."""
    if requested_version(refusal.spec) is not None or not refusal.spec:
        return None
    ranged = causes.platform.range_release_fix(
        m,
        normalize_name(refusal.dist),
        refusal.spec,
        r.python,
        r.os,
        refusal.final_versions or refusal.versions,
        # A dependant's range (pip's "(from basic-pitch)"), not TensorFlow's own build's.
        "" if normalize_name(refusal.required_by) in TF_DISTRIBUTIONS else refusal.required_by,
    )
    if ranged is None:
        return None
    no_release = refusal.shown and not refusal.versions and not refusal.required_by
    return (
        causes.platform.TF_NO_WHEEL_FOR_PYTHON
        if no_release
        else causes.platform.TF_RELEASE_NOT_FOR_PYTHON
    ), ranged


#: pip's warning that it installs a yanked pure wheel (signatures.yaml): its version.
_YANKED = "pip-yanked-placeholder-selected"
_YANKED_VERSION = re.compile(r"' candidate \(version (?P<version>[^\s)]{1,40}) at ")


def _yanked_placeholder(m: Machine, r: Revealed, hits: Sequence[Hits]) -> Optional[Fix]:
    """The fix where pip fell back to a yanked pure wheel of a native distribution of
    TensorFlow's family (no other release fits this interpreter); None where the log has no
    such warning, or pip's own refusal, which says more, is there too."""
    if r.pip_refusals:
        return None
    for h in hits:
        if h.signature.id != _YANKED:
            continue
        for groups, (_, line) in zip(h.groups, h.citations):
            found = _YANKED_VERSION.search(line)
            if found is not None:
                dist = normalize_name(groups.get("dist") or "")
                return causes.software.yanked_placeholder_fix(m, dist, found["version"])
    return None


def _drop_pure_yanked(by_cause: dict[str, list[Hits]]) -> None:
    """pip's yanked pure wheel says no release fits only of a distribution whose releases are
    native (the module table's): a pure distribution's yanked release is one a requirement
    pinned, which installs and runs."""
    hits = by_cause.get(causes.platform.TF_NO_WHEEL_FOR_PYTHON)
    if not hits:
        return
    native = modules().native
    kept = [
        h
        for h in hits
        if h.signature.id != _YANKED
        or any(normalize_name(g.get("dist") or "") in native for g in h.groups)
    ]
    if kept:
        by_cause[causes.platform.TF_NO_WHEEL_FOR_PYTHON] = kept
    else:
        del by_cause[causes.platform.TF_NO_WHEEL_FOR_PYTHON]


def _placeholder_imported(
    findings: dict[str, Finding], by_cause: Mapping[str, Sequence[Hits]], evidence: Evidence
) -> Iterable[Finding]:
    """``findings``, where a yanked placeholder pip installed (:func:`_yanked_placeholder`) has
    its module missed by a traceback: the placeholder is why, an error, and "not installed"
    (whose fix installs the same distribution again) is left out."""
    found = findings.get(f"explain.{causes.platform.TF_NO_WHEEL_FOR_PYTHON}")
    if found is None:
        return findings.values()
    dists = {
        normalize_name(g.get("dist") or "")
        for h in by_cause.get(causes.platform.TF_NO_WHEEL_FOR_PYTHON, ())
        if h.signature.id == _YANKED
        for g in h.groups
    }
    table = modules()
    for dist in sorted(dists):
        module = table.module_of(dist) or dist.replace("-", "_")
        if not any(
            (absent := tb.missing_module) is not None
            and absent.quoted
            and not absent.before
            and absent.name.startswith(module)
            for tb in evidence.tracebacks
        ):
            continue
        missing = findings.get(f"explain.{causes.software.PACKAGE_NOT_INSTALLED}")
        if missing is not None and missing.summary.startswith(f"{dist} (module {module})"):
            del findings[missing.id]
        findings[found.id] = dataclasses.replace(found, severity=Severity.ERROR)
        break
    return findings.values()


def _interpreter_tags(
    m: Machine, r: Revealed, hits: Sequence[Hits]
) -> Optional[tuple[causes.CauseId, Fix]]:
    """pip saw no TensorFlow release at all, and the interpreter, as `pip debug`'s tags or
    its banner show it, is one TensorFlow publishes no wheel for: a musl one (musllinux:
    Alpine, or an Alpine system or image the log names), where a glibc-based system is the
    fix, not another Python; an Android one (PEP 738's android tags), where a glibc
    distribution under proot-distro is; PyPy or a free-threaded CPython, where CPython's
    default build is. None for any other (a 32-bit one is the signature pip-tag-32bit's; for
    the others the list of releases says more)."""
    if not _no_release_at_all(r, hits):
        return None
    if (r.tags_platform or "").startswith("musllinux_"):
        return causes.platform.TF_NO_WHEEL_FOR_PYTHON, causes.platform.musl_fix()
    if r.distro is not None and "alpine" in r.distro.ids:
        # Alpine (or a system like it: postmarketOS' ID_LIKE) named by its os-release, its
        # lsb_release or hostnamectl row: musl's.
        return causes.platform.TF_NO_WHEEL_FOR_PYTHON, causes.platform.musl_fix(r.distro.name)
    if r.alpine_image is not None and r.os in (None, "linux"):
        # An Alpine container beside a log of another system (PowerShell's prompt, a Mac)
        # is a second machine: the interpreter that failed is the host's.
        return causes.platform.TF_NO_WHEEL_FOR_PYTHON, causes.platform.musl_fix(
            f"the {r.alpine_image} image"
        )
    if (r.tags_platform or "").startswith("android_"):
        # PEP 738's tags of CPython on Android (android_24_arm64_v8a): Bionic, not glibc; the
        # ABI after the API level.
        abi = (r.tags_platform or "").split("_", 2)[-1]
        return causes.platform.TF_NO_WHEEL_FOR_PYTHON, causes.platform.android_fix(abi)
    shown = r.interpreter
    if shown is None:
        return None
    if shown.platform == "win_arm64":
        return causes.platform.TF_NO_WHEEL_FOR_PYTHON, causes.platform.windows_arm64_fix(m)
    if shown.answered_bits == 32:
        # The interpreter's own answer that it is 32-bit (a 32-bit tag is pip-tag-32bit's).
        return causes.platform.PYTHON_32BIT, causes.platform.python_64bit_fix(m)
    fix = causes.platform.interpreter_without_wheels_fix(
        m, shown.implementation, shown.free_threaded, shown.python or r.python or ""
    )
    return (causes.platform.TF_NO_WHEEL_FOR_PYTHON, fix) if fix is not None else None


def _unmatched_spec(dist: str, lines: Sequence[str]) -> Optional[str]:
    """The specifier pip's "No matching distribution found" line asks of ``dist``; None for
    any version."""
    return next(
        (u[1] for u in map(read_unmatched, lines) if u is not None and u[0] == dist and u[1]),
        None,
    )


def _unmatched_published(dist: str, lines: Sequence[str]) -> Optional[str]:
    """The specifier pip's "No matching distribution found" line asks of ``dist``, where the
    bundled wheel index lists releases of it that the specifier admits (they exist, with
    wheels for some Pythons and platforms); None otherwise (any version asked, or none
    published: a release that does not exist is another question)."""
    spec = _unmatched_spec(dist, lines)
    if spec is None:
        return None
    return spec if causes.software.releases_published(dist, spec) else None


def _release_not_for_python(
    m: Machine, r: Revealed, hits: Sequence[Hits]
) -> tuple[causes.CauseId, Fix]:
    """A release with no file for this interpreter, as its signatures say: a wheel address
    that answered 404 Not Found (its file name's tags), else conda's channels without a build
    of it (pip's refusals of a release are read in _no_wheel)."""
    lines = [line for h in hits for _, line in h.citations]
    missing = next((w for w in map(read_missing_wheel, lines) if w is not None), None)
    if missing is not None:
        return causes.platform.TF_RELEASE_NOT_FOR_PYTHON, causes.platform.missing_wheel_fix(
            m,
            missing.file,
            normalize_name(missing.dist),
            missing.version,
            missing.python_version,
            missing.platform,
        )
    return causes.platform.TF_RELEASE_NOT_FOR_PYTHON, causes.conda.channel_build_fix(m)


def _either(pythons: Sequence[str]) -> str:
    """``["3.3", "3.4"]`` -> ``3.3 or 3.4``."""
    return ", ".join(pythons[:-1]) + (" or " if len(pythons) > 1 else "") + pythons[-1]


def _linux_pythons(m: Matrix, version: str) -> Optional[set[str]]:
    """The Pythons the Linux x86-64 wheels of the release ``version`` are for (the matrix)."""
    pythons = m.release_pythons(version)
    return set(pythons.get("linux-x86_64", ())) if pythons is not None else None


#: 64-bit Linux architectures TensorFlow publishes no wheel for (its matrix's platforms).
_NO_WHEEL_ARCHS = frozenset({"ppc64le", "s390x"})
#: 64-bit machines uname names that a 32-bit Python seldom runs on (not aarch64: Raspberry Pi
#: OS's 32-bit system runs a 64-bit kernel, which uname reports, under 32-bit programs).
_MACHINES_64BIT = frozenset({"x86_64", *_NO_WHEEL_ARCHS})
#: 32-bit machines as uname and platform name them (x86 and Arm): a kernel that says so runs
#: 32-bit programs only, and TensorFlow's wheels are 64-bit (x86-64, aarch64) only.
_MACHINES_32BIT = frozenset({"i386", "i486", "i586", "i686", "armv6l", "armv7l"})


def _machine_refusal(
    m: Machine, r: Revealed, refusal: PipRefusal
) -> Optional[tuple[causes.CauseId, Fix]]:
    """Cause and fix where pip lists no TensorFlow at all on a Linux machine the log names
    (uname, platform.platform()) other than x86-64: an architecture with no wheel of any
    release; on aarch64, whose wheels start later (the matrix's linux-aarch64 Pythons), a
    pinned release before them, a Python none of them is for, else a pip before 19.3 shown
    (they are manylinux2014, PEP 599); a 32-bit machine (uname -m's answer alone, which no
    signature reads, as uname -a's and platform.platform()'s are) is python-32bit's, with the
    same fix, whatever releases pip lists (another index's builds for the machine, such as
    piwheels' for 32-bit Arm, which no 64-bit wheel of PyPI's replaces). None elsewhere."""
    machine = r.machine
    if (
        machine is None
        or m.matrix is None
        or r.os not in (None, "linux")
        or not refusal.shown
        or normalize_name(refusal.dist) not in _OWN_BUILDS
    ):
        return None
    if machine in _MACHINES_32BIT and not _shown_64bit(r):
        # The kernel's own word that the system is 32-bit: no Python on it has a wheel of
        # TensorFlow's (x86-64 and aarch64 only); what pip lists comes from another index,
        # and a newer pip or another pin of it finds no TensorFlow 2 there.
        return causes.platform.PYTHON_32BIT, causes.platform.python_64bit_fix(m, machine)
    if refusal.versions:
        return None
    if machine in _NO_WHEEL_ARCHS:
        return causes.platform.TF_NO_WHEEL_FOR_PYTHON, causes.platform.arch_without_wheels_fix(
            machine
        )
    if machine != "aarch64":
        return None
    having = [
        x
        for x in sorted(m.matrix.lines, key=lambda x: version_key(x.line))
        if not x.pre_release and x.python.get("linux-aarch64")
    ]
    if not having:
        return None
    pythons = sorted({py for x in having for py in x.python["linux-aarch64"]}, key=version_key)
    asked = requested_version(refusal.spec)
    if asked is not None and version_key(asked)[:2] < having[0].key:
        # A release before the first aarch64 line: no Python changes that.
        return causes.platform.TF_NO_WHEEL_FOR_PYTHON, causes.platform.aarch64_release_fix(
            asked, having[0].line, pythons
        )
    minor = ".".join((r.python or "").split(".")[:2])
    if minor and minor not in pythons:
        return causes.platform.TF_NO_WHEEL_FOR_PYTHON, causes.platform.aarch64_python_fix(
            r.python or minor, having[0].line, pythons
        )
    if r.pip_version and version_key(r.pip_version) < causes.platform.PIP_MANYLINUX2014:
        return causes.platform.PIP_TOO_OLD, causes.platform.pip_upgrade_fix(
            m,
            f"The log shows pip {r.pip_version} on Linux aarch64, where TensorFlow's wheels "
            f"(from {having[0].line}) are tagged manylinux2014, which pip reads only since "
            "19.3: it lists none of them.",
            pip=r.pip_version,
        )
    return None


def _blind_to_newer_manylinux(m: Machine, r: Revealed, refusal: PipRefusal) -> Optional[Fix]:
    """pip lists TensorFlow's releases up to the last before the first line whose Linux wheels
    need a newer manylinux tag (the matrix's glibc_min: manylinux2010 from 1.15, manylinux2014
    from 2.9, ...), and none after, while the Python (the log's, else the one every release
    listed has wheels for) has wheels of releases after it: only a pip that does not read the
    newer tag lists so (:func:`tfdoctor.explain.platform.pip_reading_glibc`). Past the first
    tag, whose pips are long gone, the list ending there says so only where the log shows such
    a pip or asks for a release past it (else the log may predate that release). None where
    anything else can explain the list."""
    matrix = m.matrix
    listed = refusal.final_versions
    if matrix is None or not listed or r.os not in (None, "linux"):
        return None
    if (m.platform is not None and m.platform != "linux-x86_64") or r.machine not in (
        None,
        "x86_64",
    ):
        return None  # manylinux1's last releases are the x86-64 ones; other machines differ
    finals = sorted(
        (x for x in matrix.lines if not x.pre_release), key=lambda x: version_key(x.line)
    )
    newest = max(listed, key=version_key)
    # The first line after the list whose tag is newer than the line before it needs.
    floors = [MANYLINUX1_GLIBC, *(version_key(x.glibc_min or "0") for x in finals)]
    cuts = [
        x
        for x, before in zip(finals, floors)
        if x.glibc_min and version_key(x.glibc_min) > before and x.key > version_key(newest)[:2]
    ]
    if not cuts:
        return None
    cut = cuts[0]
    needs = pip_reading_glibc(version_key(cut.glibc_min or ""))
    if r.pip_version and version_key(r.pip_version) >= needs:
        return None  # the pip shown reads that tag: its list is about something else
    asked = requested_version(refusal.spec)
    if asked is not None and version_key(asked)[:2] < cut.key:
        return None  # a release pip would read the tags of: its Python is the question
    if needs != causes.platform.PIP_MANYLINUX2010 and not r.pip_version and asked is None:
        return None  # a log older than the cut's release lists the same
    if r.python:
        candidates = {".".join(r.python.split(".")[:2])}
    else:
        # TensorFlow publishes wheels only: each release pip lists has one for this Python.
        known = [p for p in map(functools.partial(_linux_pythons, matrix), listed) if p]
        candidates = set.intersection(*known) if known else set()
    between = [
        set(row.python.get("linux-x86_64", ()))
        for row in matrix.early_releases
        if version_key(newest) < version_key(row.release) and version_key(row.release)[:2] < cut.key
    ] + [
        set(x.python.get("linux-x86_64", ()))
        for x in finals
        if version_key(newest)[:2] < x.key < cut.key
    ]
    if any(candidates & pys for pys in between):
        return None  # a release pip reads the tags of is missing from the list too
    later = {py for x in finals if x.key >= cut.key for py in x.python.get("linux-x86_64", ())} | {
        py
        for row in matrix.early_releases
        if version_key(row.release)[:2] >= cut.key
        for py in row.python.get("linux-x86_64", ())
    }
    supported = sorted(candidates & later, key=version_key)
    if not supported:
        return None
    others = sorted(candidates - later, key=version_key)
    python = (
        f"Python {r.python}"
        if r.python
        else "the Python every release it lists is built for (" + _either(supported) + ")"
    )
    tag = manylinux_name(version_key(cut.glibc_min or ""))
    return causes.platform.pip_upgrade_fix(
        m,
        f"pip lists TensorFlow only up to {newest}: every Linux wheel from {cut.line} on is "
        f"tagged {tag} or newer (the matrix's glibc {cut.glibc_min}), which pip before "
        f"{'.'.join(map(str, needs))} does not read, while "
        f"{python} has wheels of those releases."
        + (
            f" (If this Python is {_either(others)}, which no later release supports, the "
            "Python is what to change instead.)"
            if others
            else ""
        ),
        pip=r.pip_version,
    )


_NO_WHEEL = (causes.platform.TF_NO_WHEEL_FOR_PYTHON, causes.platform.TF_RELEASE_NOT_FOR_PYTHON)
#: A release with NVIDIA's local version label for its Jetson builds (``1.15.5+nv21.7``).
_NVIDIA_LOCAL = re.compile(r"==\s*[\d.]+\+nv\d")


#: The first TensorFlow whose Linux wheels carry only the manylinux2010 tag, which pip reads
#: since 19.0 (https://github.com/tensorflow/tensorflow/releases/tag/v1.15.0).
_MANYLINUX2010_TF = (1, 15)


def _unprefixed(line: str) -> bool:
    """Whether ``line`` is pip's refusal as a pip before 19.1 printed it: 19.1 began prefixing
    its errors with "ERROR: " (https://github.com/pypa/pip/blob/19.1/NEWS.rst, pypa/pip#6298)."""
    said = read_pip_line(line)
    return said is not None and said.kind is PipKind.NO_VERSION and not said.level


def _unprefixed_refusal(m: Machine, r: Revealed, hits: Sequence[Hits]) -> Optional[Fix]:
    """A pip before 19.1 (its refusal printed without ``ERROR:``) refusing a TensorFlow request
    that only releases since 1.15 meet, on Linux or a system not shown, listing none of them
    (or a list cut short): those releases publish manylinux2010 wheels only, which pip reads
    only since 19.0. Where the log shows the Python, a release the request admits must have a
    Linux wheel for it (else the Python, not pip, is the reason)."""
    if (
        m.matrix is None
        or r.os not in (None, "linux")
        # A pip shown as 19.0 or later reads manylinux2010 whatever its words look like.
        or (r.pip_version and version_key(r.pip_version) >= causes.platform.PIP_MANYLINUX2010)
        or not any(_unprefixed(line) for h in hits for _, line in h.citations)
    ):
        return None
    for refusal in r.pip_refusals:
        listed = [version_key(v) for v in refusal.final_versions]
        admitted = [
            line
            for line in m.matrix.lines
            if refusal.spec and spec_contains(line.latest_patch, refusal.spec) is True
        ]
        # The matrix's lines start at 1.15; its early releases before 1.15 have manylinux1
        # wheels, which an old pip reads: a request one of them meets is not pip's to fail.
        early = any(
            version_key(row.release) < _MANYLINUX2010_TF
            and refusal.spec
            and spec_contains(row.release, refusal.spec) is True
            for row in m.matrix.early_releases
        )
        if (
            normalize_name(refusal.dist) in TF_DISTRIBUTIONS
            and admitted
            and not early
            and all(version_key(line.line) >= _MANYLINUX2010_TF for line in admitted)
            and any(line.has_wheels_for(r.python, "linux-") for line in admitted)
            and all(v < _MANYLINUX2010_TF for v in listed)
            # "from versions: none" is another reason's: an old pip lists the older releases.
            and (listed or not refusal.shown)
        ):
            shown = (
                f"lists TensorFlow only up to {max(refusal.final_versions, key=version_key)}"
                if listed
                else "the log cuts its list of releases short"
            )
            return causes.platform.pip_upgrade_fix(
                m,
                "pip printed its refusal without 'ERROR:', as pips before 19.1 do, and "
                f"{shown}: every Linux wheel of the releases asked for ({refusal.spec}) carries "
                "the manylinux2010 tag or a newer one, which pip reads only since 19.0.",
            )
    return _unprefixed_companion_refusal(m, r)


def _unprefixed_companion_refusal(m: Machine, r: Revealed) -> Optional[Fix]:
    """A pip before 19.1 (the caller has read its unprefixed refusal) listing releases of a
    distribution the bundled wheel index describes, none of them one whose Linux wheels the
    index records, while every release the request admits publishes only platform wheels
    with Linux ones among them: a pip that old reads only the manylinux1 tag of a Linux
    wheel (manylinux2010 from 19.0, manylinux2014 from 19.3: pip's release notes), which
    the list (pre-releases or sdists only) shows it skipped. Where the log shows the Python,
    one of those releases must have a Linux wheel for it (else the Python is the reason).
    The fix ranks the two readings the text leaves open: pip first, then the Python."""
    for refusal in r.pip_refusals:
        dist = normalize_name(refusal.dist)
        rows = releases_of(dist)
        if dist in TF_DISTRIBUTIONS or not rows or not refusal.versions:
            continue  # "from versions: none" is another reason's (an index, a Python)
        admitted = [
            row for row in rows if not refusal.spec or spec_contains(row.version, refusal.spec)
        ]
        with_linux = {row.version for row in rows if row.platform_fits("linux")}
        if (
            not admitted
            or any(row.pure or not row.platform_fits("linux") for row in admitted)
            or any(v in with_linux for v in refusal.versions)
            or (r.python and not any(row.python_fits(r.python) for row in admitted))
        ):
            continue
        pythons = sorted(
            {p for row in admitted for p in row.pythons if not p.startswith("py")},
            key=version_key,
        )
        span = python_span(tuple(pythons)) if pythons else "the Pythons they list"
        asked = f" ({refusal.spec})" if refusal.spec else ""
        return causes.platform.pip_upgrade_fix(
            m,
            "pip printed its refusal without 'ERROR:', as pips before 19.1 do, and lists "
            f"{dist} {', '.join(refusal.versions)} only, none of the releases asked for{asked}, "
            f"though each publishes Linux wheels (for {span}): a pip before 19.0 reads only "
            "the manylinux1 tag of a Linux wheel (manylinux2010 from 19.0, manylinux2014 from "
            f"19.3). If the upgraded pip still lists no such release of {dist}, the Python "
            f"is the reason: use one of {span} (`python --version`).",
        )
    return None


def _python_has_macos_wheels(m: Machine, python: str) -> bool:
    """Whether some TensorFlow line publishes macOS wheels for ``python`` (the matrix)."""
    return m.matrix is not None and any(
        line.has_wheels_for(python, "macos-") for line in m.matrix.lines
    )


#: Wrapper distributions users also install by name (https://developer.apple.com/metal/
#: tensorflow-plugin/: `pip install tensorflow-macos` for TensorFlow 2.12 and before).
_INSTALLED_BY_NAME = frozenset({"tensorflow-macos"})


def _refused_wrapper(m: Machine, r: Revealed) -> Optional[Fix]:
    """pip refused a pin of a distribution TensorFlow's ``tensorflow`` wheel requires on one
    platform only (tensorflow-intel on Windows, tensorflow-macos, tensorflow-cpu-aws: the
    matrix's wrappers), where it has no wheel: a requirements file frozen on that platform."""
    if m.matrix is None:
        return None
    platforms = m.matrix.wrapper_platforms()
    for refusal in r.pip_refusals:
        dist = normalize_name(refusal.dist)
        # tensorflow-macos was also Apple silicon's TensorFlow itself (2.5-2.12, installed by
        # name as Apple's Metal plugin guide says): a request for it is no frozen pin.
        keys = () if dist in _INSTALLED_BY_NAME else platforms.get(dist, ())
        # On its own platform the refusal is about the Python or the release, not the pin.
        if keys and not any(r.os is not None and key.startswith(r.os) for key in keys):
            return causes.platform.wrapper_pin_fix(
                dist, keys, refusal.spec or "", system_shown=r.os is not None
            )
    return None


def _refused_companion(r: Revealed, hits: Sequence[Hits]) -> Optional[str]:
    """The companion pip found no wheel of, where only companions were refused (tensorflow-io,
    -text, Addons, tflite-runtime: their releases are not TensorFlow's, and their wheels cover
    other Pythons and platforms); None where a TensorFlow distribution was refused too."""
    named = [normalize_name(g["dist"]) for h in hits for g in h.groups if g.get("dist")]
    refused = [normalize_name(x.dist) for x in r.pip_refusals]
    if any(d in TF_DISTRIBUTIONS for d in (*refused, *named)):
        return None
    return next(iter((*refused, *named)), None)


#: uv's refusal of every release for the interpreter's platform tags (not its Python's).
_UV_PLATFORM_TAG = "uv-no-platform-tag-any-release"
#: The same of the one release uv chose.
_UV_RELEASE_PLATFORM = "uv-no-platform-tag"
# uv's platform hint under it (uv-distribution-types): "Wheels are available for `X` (v1) on
# the following platform(s): `manylinux_2_17_x86_64`, ..." (its Python hints are evidence:
# evidence.pip's read_abi_hints, read in _no_wheel).
_UV_PLATFORMS = re.compile(r"on the following platforms?: (?P<platforms>[`\w., ]+)")


def _platform_refusal(r: Revealed, hits: Sequence[Hits]) -> Optional[Fix]:
    """The fix where uv's words say no release has a wheel for the interpreter's platform
    tags (the machine or the interpreter's architecture, not its Python version); None
    where they are not in the log, or pip's own refusal, which says more, is there too."""
    words = [h for h in hits if h.signature.id == _UV_PLATFORM_TAG]
    if not words or r.pip_refusals:
        return None
    dist = normalize_name(next((g["dist"] for h in words for g in h.groups if g.get("dist")), ""))
    if dist in TF_DISTRIBUTIONS and (r.tags_platform or "").startswith("musllinux_"):
        # uv's example tag is a musl interpreter's (PEP 656): no TensorFlow build runs on musl.
        return causes.platform.musl_fix()
    hint = next((x for x in r.platform_hints if x.dist == dist), None)
    return causes.platform.platform_tag_fix(
        dist, hint.version if hint else None, hint.platforms if hint else ()
    )


#: uv's words for a wheel whose implementation tag fails (IncompatibleTag::Python: ``pp310``
#: where the interpreter is PyPy), apart from the ABI's and the Python version's.
_IMPLEMENTATION_WORDS = "with a matching Python implementation"


def _implementation_words(hits: Sequence[Hits]) -> bool:
    """Whether uv's refusal among ``hits`` is of the interpreter's implementation tag."""
    return any(
        _IMPLEMENTATION_WORDS in line
        for h in hits
        if ABI_TAG in h.signature.tags
        for _, line in h.citations
    )


def _abi_tag_refusal(m: Machine, r: Revealed, hits: Sequence[Hits]) -> Optional[Fix]:
    """The fix for the resolver's refusal of every release (or of a range of releases) of
    TensorFlow for the interpreter's Python tags (a pin's refusal is one release's); None
    where the words are not those, or are another package's."""
    abi_words = [
        h for h in hits if ABI_TAG in h.signature.tags and ONE_RELEASE not in h.signature.tags
    ]
    if not abi_words or r.pip_refusals:
        return None
    # uv's (or pixi's) words say the wheels' Python tags are what does not match: the
    # interpreter's Python version (or implementation), not its bitness or platform.
    dist = normalize_name(
        next((g["dist"] for h in abi_words for g in h.groups if g.get("dist")), "")
    )
    if dist not in TF_DISTRIBUTIONS:
        return None
    if _implementation_words(abi_words):
        return causes.platform.implementation_tag_fix(m, dist)
    # uv's report of a range of releases (uv-no-abi-tag-range): the fix looks inside it.
    within = next((g["spec"] for h in abi_words for g in h.groups if g.get("spec")), "")
    return causes.platform.abi_tag_python_fix(m, dist, within)


def _resolver_release(hits: Sequence[Hits], r: Revealed, m: Machine) -> Optional[Fix]:
    """The fix for a release a resolver chose and found no file of, read with its hint (on
    the refusal's line, else uv's platform hint for that release on a line below it); for
    Poetry, whose words name neither, the matrix's Pythons and platforms of the release."""
    found = [
        (g, line)
        for h in hits
        if ONE_RELEASE in h.signature.tags
        for g, (_, line) in zip(h.groups, h.citations)
    ]
    if not found:
        return None
    groups, line = found[0]
    if normalize_name(groups.get("dist") or "") not in TF_DISTRIBUTIONS or not groups.get(
        "tf_version"
    ):
        # A companion's (tensorflow-text, tensorflow-io-gcs-filesystem): whether any of its
        # releases has a wheel here is the companion's question (_refused_companion).
        return None
    dist, version = normalize_name(groups["dist"]), groups["tf_version"]
    if _implementation_words(hits):
        # The interpreter is not CPython (uv's implementation tag): TensorFlow publishes no
        # other Python's wheel, so another release is no fix.
        return causes.platform.implementation_tag_fix(m, dist, version)
    platforms = _UV_PLATFORMS.search(line)
    hinted = next(
        (x.platforms for x in r.platform_hints if x.dist == dist and x.version == version), ()
    )
    # The matrix's Pythons and platforms are those of the tensorflow wheels: not a wrapper's
    # (tensorflow-intel is Windows-only, tensorflow-macos macOS-only) nor another build's.
    line_of = m.matrix.line_for(version) if m.matrix is not None and dist == "tensorflow" else None
    if (
        not platforms
        and not hinted
        and installer_of(hits).finder == "Poetry"
        and line_of is not None
    ):
        return causes.platform.poetry_release_fix(dist, version, line_of)
    return causes.platform.resolver_release_fix(
        dist,
        version,
        None,
        (),
        re.findall(r"[\w.]+", platforms.group("platforms")) if platforms else hinted,
    )


#: TensorFlow's own builds, whose Pythons the matrix knows (the wheels of ``tensorflow``), and
#: its CPU-only build, which no 32-bit interpreter installs either.
_OWN_BUILDS = frozenset({"tensorflow", "tensorflow-gpu", "tensorflow-cpu"})


#: The site-packages of a Python installed under /usr/local: Homebrew's on an Intel Mac as much
#: as one built from source on Linux (Docker's python images), so no system of its own.
_LOCAL_SITE = re.compile(r"/usr/local/lib/python\d\.\d+/site-packages\b")


def _macos_open(r: Revealed, text: str) -> bool:
    """Whether the system may be macOS: the log shows macOS, or no system, or Linux only by
    the path of a Python under /usr/local (:data:`_LOCAL_SITE`)."""
    if r.os in (None, "macos"):
        return True
    if r.os != "linux" or "/usr/local/lib/python" not in text:
        return False
    linux = dict(_OS_TEXT)["linux"]
    stated = [x for x in r.inferred if x.fact == "os"]
    # The path style's own words (_os_of: "/usr/", a quote or parenthesis before it).
    return all(x.because.strip("\"'( ") == "/usr/" for x in stated) and not linux.search(
        _LOCAL_SITE.sub("", text)
    )


def _pinned_candidates(
    given: Mapping[str, Finding], m: Machine, r: Revealed, refusal: PipRefusal, own: bool = True
) -> list[Finding]:
    """For a pinned release pip listed nothing of, the reading not ``given``: no release at
    all fits this interpreter, or the pinned one alone, where the log predates the releases
    built for this Python (:func:`_refusal_candidates`). ``own``: whether the build is
    TensorFlow's own (``tensorflow``, ``tensorflow-gpu``); another's pin gets the second
    reading alone, since the matrix's Pythons of every release are TensorFlow's own."""
    dist = normalize_name(refusal.dist)
    requested = requested_version(refusal.spec)
    out: list[Finding] = []
    if requested is not None and dist != "tensorflow-cpu":
        name = "TensorFlow" if dist in _OWN_BUILDS else dist
        release = f"{'TensorFlow' if dist == 'tensorflow' else dist} {requested}"
        if causes.platform.TF_NO_WHEEL_FOR_PYTHON in given:
            cause, fix, _ = causes.platform.pip_refusal_fix(
                m, (), requested, r.python, dist, False, refusal.required_by
            )
            if cause == causes.platform.TF_RELEASE_NOT_FOR_PYTHON:
                out.append(
                    causes.other_candidate(
                        cause,
                        f"{release} alone has no wheel for this Python",
                        f"pip's empty list says no {name} release had a wheel for this "
                        "interpreter when it ran; a log older than the releases built for this "
                        f"Python reads the same, and then the pin of {release} is what to move.",
                        fix,
                    )
                )
        elif own and causes.platform.TF_RELEASE_NOT_FOR_PYTHON in given:
            cause, fix, _ = causes.platform.pip_refusal_fix(m, (), None, r.python, dist)
            if cause == causes.platform.TF_NO_WHEEL_FOR_PYTHON:
                out.append(
                    causes.other_candidate(
                        cause,
                        "no TensorFlow release at all has a wheel for this interpreter",
                        f"pip's empty list names no release at all, not only {release}: where "
                        "this Python, its bitness or the platform has no TensorFlow, another "
                        "release of the package that pins it changes nothing.",
                        fix,
                    )
                )
    return out


def _refusal_candidates(
    findings: Mapping[str, Finding], m: Machine, r: Revealed, text: str = ""
) -> list[Finding]:
    """The other candidates, as warnings after the reading given, where pip's empty list of a
    TensorFlow build (``from versions: none``) leaves open why no release fits. pip lists
    every release with a file for this interpreter whatever the specifier asks
    (package_finder.py's find_all_candidates, which the refusal's "from versions" prints:
    https://github.com/pypa/pip/blob/23.0/src/pip/_internal/resolution/resolvelib/factory.py,
    ``_report_single_requirement_conflict``), so an empty list says no release at all fitted
    when pip ran; what the log does not show is why:

    - a pinned release: no release at all (the interpreter is what to change), or the pinned
      one alone where the log predates the releases built for this Python (the pin is): each
      reading gets the other as its candidate;
    - for a request of any release, the interpreter 32-bit (TensorFlow has only 64-bit wheels),
      where the log shows no system, no Mac (no 32-bit Python runs on a macOS TensorFlow
      supports), no x86-64 machine and no Python, or shows Windows with a Python TensorFlow
      has Windows wheels for (python.org's default Windows installer was 32-bit up to 3.8);
    - pip older than 20.3, shown, on a system that may be macOS (:func:`_macos_open`, in
      ``text``, the log), with a Python TensorFlow has macOS wheels for: on macOS 11 and later
      such a pip reads no macOS wheel."""
    given = {
        x.cause: x
        for x in findings.values()
        if x.cause in _NO_WHEEL and x.severity.rank >= Severity.WARNING.rank
    }
    refusal = next(
        (
            x
            for x in r.pip_refusals
            if normalize_name(x.dist) in _OWN_BUILDS and x.shown and not x.versions
        ),
        None,
    )
    if not given:
        return []
    if refusal is None:
        # Another build's pin of a final release (tensorflow-rocm==2.1.0) reads as
        # TensorFlow's own: its version names the TensorFlow line whose Pythons it has at the
        # most. Not a nightly's (PyPI drops old ones) nor Apple's build, whose own Pythons and
        # macOS-only wheels its reading names.
        other = next(
            (
                x
                for x in r.pip_refusals
                if normalize_name(x.dist) in TF_DISTRIBUTIONS
                and not macos_wheels_only(normalize_name(x.dist))
                and x.shown
                and not x.versions
                and (pinned := requested_version(x.spec)) is not None
                and not causes.software.is_prerelease(pinned)
            ),
            None,
        )
        if other is None or _apple_silicon_refusal(m, r, other) is not None:
            return []
        return _pinned_candidates(given, m, r, other, own=False)
    if _apple_silicon_refusal(m, r, refusal) is not None:
        # On Apple silicon the platform decides, whatever the Python: the other readings'
        # Pythons are those of wheels for other platforms.
        return []
    out = _pinned_candidates(given, m, r, refusal)
    windows_python = (
        r.os == "windows"
        and bool(r.python)
        and m.matrix is not None
        and any(line.has_wheels_for(r.python, "windows-") for line in m.matrix.lines)
    )
    if (
        f"explain.{causes.platform.PYTHON_32BIT}" not in findings
        # A request for any release: a pin or a range has its own Pythons to weigh first.
        and not refusal.spec
        and r.mac is None
        and r.os in (None, "windows")
        and (not r.python or windows_python)
        # uname's or platform's word for a 64-bit machine: a 32-bit Python there is rare; and
        # a Mac's paths anywhere in the log (r.os reads the cited lines only).
        and r.machine not in _MACHINES_64BIT
        and not dict(_OS_TEXT)["macos"].search(text)
        # The interpreter's own words that it is 64-bit (its Windows build string, pip's
        # tags) or that its kind is the cause (PyPy, a free-threaded build).
        and not _shown_64bit(r)
        and (
            r.interpreter is None
            or (not r.interpreter.free_threaded and r.interpreter.implementation in ("", "CPython"))
        )
    ):
        wide = causes.platform.python_64bit_fix(m)
        out.append(
            causes.other_candidate(
                causes.platform.PYTHON_32BIT,
                "a 32-bit Python, for which TensorFlow publishes no wheel",
                "pip lists no release for a 32-bit interpreter whatever its version: "
                "TensorFlow's wheels are 64-bit only, and python.org's default Windows "
                "installer was the 32-bit one up to Python 3.8. The first command prints the "
                "interpreter's bits: 32 is this candidate.",
                Fix(wide.text, (causes.common.INTERPRETER_CHECK, *wide.commands)),
            )
        )
    if (
        f"explain.{causes.platform.PIP_TOO_OLD}" not in findings
        and r.pip_version
        and version_key(r.pip_version) < causes.platform.PIP_MACOS11
        and _macos_open(r, text)
        and m.matrix is not None
        and any(line.has_wheels_for(r.python, "macos-") for line in m.matrix.lines)
    ):
        out.append(
            causes.other_candidate(
                causes.platform.PIP_TOO_OLD,
                f"pip {r.pip_version} on macOS 11 or later, which it does not read the wheels of",
                "The log does not show the system. On macOS 11 and later a pip older than "
                "20.3 finds no macOS wheel of any release, so it lists none.",
                causes.platform.macos11_pip_fix(m, r.pip_version, r.python),
            )
        )
    named = _required_by_name(findings, m, r, refusal, text)
    if named is not None:
        out.append(named)
    return out


def _required_by_name(
    findings: Mapping[str, Finding], m: Machine, r: Revealed, refusal: PipRefusal, text: str
) -> Optional[Finding]:
    """pip listing no ``tensorflow`` at all where another distribution requires that name
    ("(from gpflow)"), on a Mac not shown to be an Intel one: until the matrix's first line
    with macOS arm64 wheels of ``tensorflow`` (2.13), TensorFlow on Apple silicon was Apple's
    tensorflow-macos, which provides the module under another distribution name, so a
    library's requirement of ``tensorflow`` fails although TensorFlow may be installed. A
    candidate beside the reading given (the log does not show what is installed); a Python
    shown must be one tensorflow-macos has wheels for."""
    library = normalize_name(refusal.required_by)
    cause = causes.software.TF_DISTRIBUTION_UNRECOGNISED
    if (
        m.matrix is None
        or normalize_name(refusal.dist) != "tensorflow"
        or not library
        or library in TF_DISTRIBUTIONS
        or f"explain.{cause}" in findings
        or (r.mac is not None and r.mac.value == INTEL)
        # An x86-64 Python (Intel, or Rosetta 2) has the tensorflow distribution's own wheels.
        or python_machine(text) == "x86_64"
        or not (r.os == "macos" or dict(_OS_TEXT)["macos"].search(text))
    ):
        return None
    wrapper = releases_of("tensorflow-macos")
    if r.python and not any(row.python_fits(r.python) for row in wrapper):
        return None
    arm64 = sorted(
        (line for line in m.matrix.lines if line.python.get("macos-arm64")),
        key=lambda line: version_key(line.line),
    )
    if not arm64:
        return None
    return causes.other_candidate(
        cause,
        f"{library} requires `tensorflow` by name beside Apple's tensorflow-macos",
        f"pip found no release of the distribution named tensorflow, which {library} requires, "
        "for this Mac's Python. On Apple silicon, TensorFlow before "
        f"{arm64[0].line} is Apple's tensorflow-macos (the tensorflow distribution has macOS "
        f"arm64 wheels from {arm64[0].line}: the matrix), whose module {library} imports but "
        "whose name its requirement does not match.",
        causes.software.required_by_name_fix(m, library, arm64[0].line),
    )


#: One distribution and its release in a listing ("tensorflow-intel 2.19.0").
_LISTED_RELEASE = re.compile(r"(?P<name>[A-Za-z0-9][\w.-]*) (?P<version>\d[\w.+!-]*)")


def _tf_distributions(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """TensorFlow's own listing of its distributions installed at differing releases: every
    one out, the newest final release back in."""
    listed = group(hits, "installed") or ""
    seen = {
        normalize_name(x.group("name")): x.group("version")
        for x in _LISTED_RELEASE.finditer(listed)
    }
    return causes.software.TF_MULTIPLE_DISTRIBUTIONS, distributions_fix(
        seen or {m.tf_name or "tensorflow": ""}, m
    )


#: pip's words for a source build before 19.0 (wheel.py's spinner, "Running setup.py
#: bdist_wheel for X"; 19.0 says "Building wheel for X (setup.py)").
_LEGACY_BUILD = "pip-legacy-source-build"


def _python_32bit(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    # The architecture uname or platform printed, where the system itself is 32-bit; uv's
    # words where uv refused the interpreter (its fix is uv's, in the interface that printed
    # them: "You're on Windows" is a project's install, lock/mod.rs).
    installer = installer_of(hits)
    return causes.platform.PYTHON_32BIT, causes.platform.python_64bit_fix(
        m,
        group(hits, "architecture") or "",
        (installer.interface or "uv pip") if installer.uv else "pip",
    )


def _pip_old(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    shown = f"pip {r.pip_version}" if r.pip_version else "this pip"
    built = group(hits, "dist") if all(h.signature.id == _LEGACY_BUILD for h in hits) else None
    if built is not None:
        return causes.platform.PIP_TOO_OLD, causes.platform.pip_upgrade_fix(
            m,
            f'pip is building {built} from its source archive, and its words ("Running '
            'setup.py bdist_wheel for") are those of a pip before 19.0, which reads neither the '
            "manylinux2014 wheels (pip 19.3) nor the manylinux_2_x ones (pip 20.3) that binary "
            "packages publish now: it passes over them for a build that needs compilers and "
            "takes hours on a small board.",
            pip=r.pip_version,
        )
    if any(h.signature.id == "pypi-tls-refused" for h in hits):
        return causes.platform.PIP_TOO_OLD, causes.platform.pip_upgrade_fix(
            m,
            f"PyPI refused the connection: it accepts TLS 1.2 only (since 2018), which {shown} "
            "or the Python's SSL library under it does not speak, so pip cannot fetch anything.",
            tls=True,
        )
    return causes.platform.PIP_TOO_OLD, causes.platform.pip_upgrade_fix(
        m,
        f"{shown if r.pip_version else 'This pip'} predates Requires-Python (pip 9.0): it "
        "installs releases that no longer support this Python, whose builds then fail.",
        pip=r.pip_version,
    )


def _listed_for(refusal: PythonRefusal, dist: str) -> bool:
    """Whether ``refusal`` is in the list form and of ``dist``: pip's list names no
    distribution (it follows the refusal it belongs to), its verbose lines name each file's."""
    return not refusal.dist and (not refusal.of or refusal.of == normalize_name(dist))


def _skipped_for_python(m: Machine, r: Revealed) -> Optional[tuple[causes.CauseId, Fix]]:
    """pip refused the requested release and said it skipped that release for its
    Requires-Python: the interpreter is outside its range (pip's words, not the matrix's).
    A name asked for alone or with a range, where pip's one refusal follows its list of the
    releases it skipped, is read from the newest of those the range admits: no release at
    all for this Python where pip lists none, else the skipped ones'."""
    for refused in r.pip_refusals:
        asked = requested_version(refused.spec)
        skipped = next(
            (x for x in r.python_refusals if _listed_for(x, refused.dist) and x.version == asked),
            None,
        )
        if asked is not None and skipped is not None:
            return causes.platform.TF_RELEASE_NOT_FOR_PYTHON, causes.platform.python_range_fix(
                m, refused.dist, asked, skipped.spec, r.python, refused.final_versions
            )
    if len(r.pip_refusals) != 1 or requested_version(r.pip_refusals[0].spec) is not None:
        return None  # pip's list follows the refusal it belongs to: one refusal, one list
    refused = r.pip_refusals[0]
    # pip prints "Ignored the following versions that require a different python version"
    # for the requirement it then refuses (resolvelib/factory.py,
    # _report_single_requirement_conflict, from pip 21.2).
    admitted = [
        x
        for x in r.python_refusals
        if _listed_for(x, refused.dist)
        and x.version
        and (not refused.spec or spec_contains(x.version, refused.spec))
    ]
    if not admitted:
        return None
    newest = max(admitted, key=lambda x: version_key(x.version))
    cause = (
        causes.platform.TF_NO_WHEEL_FOR_PYTHON
        if refused.shown and not refused.versions
        else causes.platform.TF_RELEASE_NOT_FOR_PYTHON
    )
    return cause, causes.platform.python_range_fix(
        m, refused.dist, newest.version, newest.spec, r.python, refused.final_versions
    )


def _release_refused(r: Revealed) -> Optional[tuple[str, str, str]]:
    """The pin pip refused while listing another release of its line (tensorflow-text 1.15.1
    for ==1.15.0): its distribution, the release asked for and the one listed. That release,
    not the package or the Python, is what has no wheel here."""
    for refused in r.pip_refusals:
        if refused.required_by and causes.software.unknown_package(normalize_name(refused.dist)):
            # Another package's pin of a package nothing bundled describes: installing the
            # listed release leaves that pin unmet (_package_refused).
            continue
        asked = requested_version(refused.spec)
        release = causes.platform.same_line_release(asked, refused.final_versions)
        if asked is not None and release is not None:
            return refused.dist, asked, release
    return None


def _title(cause: causes.CauseId, r: Revealed) -> str:
    """The catalogue's title of ``cause``, naming the distribution a refused release is of."""
    refused = _release_refused(r)
    if cause == causes.platform.TF_RELEASE_NOT_FOR_PYTHON and refused is not None:
        return causes.platform.release_not_for_python_title(refused[0])
    return causes.CAUSES[cause].title


def _no_release_at_all(r: Revealed, hits: Sequence[Hits]) -> bool:
    """pip saw no release of a TensorFlow distribution at all: a no-match for any version, or
    a refusal whose version list is empty."""
    unpinned = any(
        h.signature.id == "pip-no-matching-distribution" and not g.get("tf_version")
        for h in hits
        for g in h.groups
    )
    listed = [x for x in r.pip_refusals if x.dist in TF_DISTRIBUTIONS]
    return (unpinned and not any(x.versions for x in listed)) or any(
        not x.versions and not x.spec for x in listed
    )


#: The signatures of TensorFlow 2.4's KerasTensors refusing what 2.3's symbolic tensors did.
_KERAS_TENSOR_SIGNATURES = frozenset(
    {"keras-tensor-not-dispatched", "keras-tensor-type-spec", "keras-tensor-numpy-conversion"}
)


def _api_default(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    # TensorFlow 2.11's optimizer, by what the log shows it met: a variable it was not built
    # with, or a device without XLA for its compiled step; TensorFlow 2.4's KerasTensors.
    if any(h.signature.id == "optimizer-unbuilt-variable" for h in hits):
        return causes.code.API_DEFAULT_CHANGED, causes.code.optimizer_build_fix()
    if any(h.signature.id in _KERAS_TENSOR_SIGNATURES for h in hits):
        return causes.code.API_DEFAULT_CHANGED, causes.code.keras_tensors_fix(m)
    if any(h.signature.id == "numpy-load-allow-pickle" for h in hits):
        return causes.code.API_DEFAULT_CHANGED, causes.code.numpy_allow_pickle_fix(m)
    named = _rule_named(m, hits)
    if named is not None:
        # keras211-optimizer-lr: scan's rule of that name.
        return named
    return causes.code.API_DEFAULT_CHANGED, causes.xla.pluggable_xla_fix()


#: Words of installing: a stated platform and release are about an install only beside them.
_INSTALL_WORDS = re.compile(r"(?i)\bpip\b|\binstall|\bwheels?\b|\bdownload|\bpypi\b|\bbinar")


def _stated_platform_release(evidence: Evidence, machine: Machine) -> Optional[Finding]:
    """The user's form names a platform and a TensorFlow release that publishes no wheel for
    it (the matrix's Pythons per platform are empty), and the text is about installing: that
    release is not for this platform, whatever pip printed or not."""
    said = evidence.stated
    platform = said.platform()
    matrix = machine.matrix
    if platform is None or said.tf_version is None or matrix is None:
        return None
    line = matrix.line_for(said.tf_version)
    if line is None or platform not in line.python or line.python[platform]:
        return None
    text = evidence.first_text
    if not _INSTALL_WORDS.search(text):
        return None
    having = causes.platform.wheel_lines(matrix.lines, platform)
    last = matrix.line_for(having[-1]) if having else None
    return causes.finding(
        f"explain.{causes.platform.TF_RELEASE_NOT_FOR_PYTHON}",
        Severity.ERROR,
        causes.platform.TF_RELEASE_NOT_FOR_PYTHON,
        causes.platform.release_not_for_python_title("tensorflow"),
        _cite_head(evidence, said.lines)
        + f"\nThe form states {platform} and TensorFlow {said.tf_version}, whose release "
        "publishes no wheel for that platform (from the matrix).",
        causes.platform.platform_ended_fix(machine, said.tf_version, platform, last),
    )


#: The signatures that show pip's own version (`pip --version`, `pip install -v`'s first line,
#: its upgrade notice).
_PIP_VERSION_SHOWN = ("pip-version-shown", "pip-version-notice")


def pip_of_another_python(evidence: Evidence, m: Machine) -> Optional[Finding]:
    """A bare ``pip --version`` naming the Python it runs in (``(python 3.10)``) beside a bare
    ``python --version`` answering another release (``Python 3.8.18``), in one shell
    (:func:`bare_python_and_pip`): what ``pip install`` puts in place lands in a Python that
    ``python`` does not import from (a Docker image whose pip is the system Python's, a PATH
    that finds another install's pip first)."""
    shown = bare_python_and_pip(evidence.first_text)
    if shown is None:
        return None
    python, pip_python = shown
    if version_key(pip_python)[:2] == version_key(python)[:2]:
        return None
    return causes.finding(
        f"explain.{causes.software.PACKAGE_NOT_INSTALLED}",
        Severity.WARNING,
        causes.software.PACKAGE_NOT_INSTALLED,
        f"pip installs for Python {pip_python}, but `python` is Python {python}",
        f"`pip --version` names Python {pip_python} and `python --version` answers Python "
        f"{python}, in one shell: the packages `pip install` puts in place go to Python "
        f"{pip_python}'s site-packages, which `python` never imports from.",
        causes.software.pip_of_python_fix(pip_python, python),
    )


def _old_pip_shown(
    evidence: Evidence, m: Machine, r: Revealed, found: Iterable[Finding]
) -> Optional[Finding]:
    """A pip older than 19.0, on Linux or a system not shown, where nothing else in the log is
    a problem: it cannot install TensorFlow's Linux wheels since 1.15 and 2.0 (manylinux2010
    and newer tags), whatever it is asked for next. A Windows or macOS log is not read so:
    pip 9 reads those systems' tags (macOS 11's only since 20.3, which the refusal shows)."""
    if (
        r.pip_version is None
        or version_key(r.pip_version) >= causes.platform.PIP_MANYLINUX2010
        or r.os not in (None, "linux")
        or any(x.severity.rank >= Severity.WARNING.rank for x in found)
    ):
        return None
    cited = [
        f"{where}: {line}"
        for sid in _PIP_VERSION_SHOWN
        if (hit := evidence.hits.get(sid)) is not None
        for where, line in hit.citations[:1]
    ]
    if any(re.search(r"(?:^|\s)[A-Za-z]:\\", line) for line in cited):
        return None  # a Windows path: pip reads win_amd64 at any age
    return causes.finding(
        f"explain.{causes.platform.PIP_TOO_OLD}",
        Severity.WARNING,
        causes.platform.PIP_TOO_OLD,
        "pip is too old for TensorFlow's wheels",
        "\n".join(cited)
        + f"\nThe log shows pip {r.pip_version}, older than 19.0, the first pip that reads "
        "the manylinux2010 tag of every Linux wheel of TensorFlow since 1.15 and 2.0.",
        causes.platform.pip_upgrade_fix(
            m,
            f"pip {r.pip_version} lists no Linux wheel of TensorFlow 1.15, 2.0 or later "
            "(manylinux2010 needs pip 19.0, manylinux2014 19.3), so it cannot install them.",
            pip=r.pip_version,
        ),
    )


#: TensorFlow's package in a per-user site-packages (site.USER_SITE): Windows'
#: %APPDATA%\\Python\\PythonXY\\site-packages, POSIX ~/.local/lib/pythonX.Y/site-packages,
#: a macOS framework build's ~/Library/Python/X.Y/lib/python/site-packages
#: (https://docs.python.org/3/library/site.html#site.USER_SITE).
_USER_SITE_TF = re.compile(
    r"(?P<site>.{0,120}?(?:[\\/]AppData[\\/]Roaming[\\/]Python[\\/]Python\d+"
    r"|/\.local/lib/python\d\.\d+|/Library/Python/\d\.\d+/lib/python)"
    r"[\\/]site-packages)[\\/]tensorflow(?:_core)?[\\/]",
    re.IGNORECASE,
)
#: A conda installation's own files (its Python reads the user site, unlike a venv's).
_CONDA_PREFIX = re.compile(
    r"[\\/](?:ana|mini)conda\d?[\\/]|[\\/](?:miniforge|mambaforge)\d?[\\/]", re.IGNORECASE
)


#: The distributions of TensorFlow's family, as the uv signatures name them.
_TF_FAMILY = TF_DISTRIBUTION + r"(?![\w-])"
#: uv's hint where the project's requires-python admits Pythons a dependency does not
#: support (PubGrubHint::RequiresPython; "`Requires-Python` requirement" before uv 0.3).
#: https://github.com/astral-sh/uv/blob/0.6.0/crates/uv-resolver/src/pubgrub/report.rs
_UV_REQUIRES_PYTHON = re.compile(
    r"hint: The `(?:requires-python|Requires-Python)` (?:value|requirement) \([^)\n]{0,80}\) "
    r"includes Python versions that are not supported by your dependencies \(e\.g\., "
    rf"(?P<dist>{_TF_FAMILY})[^\s]{{0,80}} only supports (?P<supports>[^)\n]{{1,80}})\)\."
    r"(?: Consider using a more restrictive `(?:requires-python|Requires-Python)` "
    r"(?:value|requirement) \(like (?P<like>[^)\n]{1,80})\))?"
)
#: Poetry's SolveFailure where the project's Python range reaches past a dependency's
#: (mixology/failure.py), and its PythonRequirementSolution's suggested range.
#: https://github.com/python-poetry/poetry/blob/1.8.3/src/poetry/mixology/failure.py
#: https://github.com/python-poetry/poetry/blob/1.8.3/src/poetry/mixology/solutions/solutions/python_requirement_solution.py
_POETRY_PYTHON_RANGE = re.compile(
    r"^[ \t]*- (?P<dist>" + _TF_FAMILY + r") requires Python (?P<supports>[^\n]{1,80}?), so it "
    r"will not be satisfied for Python [^\n]{1,80}$",
    re.MULTILINE,
)
#: PDM's refusal of the project's requires-python (format_resolution_impossible): one line a
#: dependency's Python requirement with the candidate that declares it, then the range it
#: suggests.
#: https://github.com/pdm-project/pdm/blob/0acc07a718a35a69e926240f8f47d53404d95a2b/src/pdm/cli/utils.py
_PDM_PYTHON_RANGE = re.compile(
    r"^[ \t]*python(?P<supports>[<>=!~][^\s(]{0,80}) \(from <Candidate (?P<dist>"
    + _TF_FAMILY
    + r")@",
    re.MULTILINE,
)
#: PDM's head of that refusal, which rich wraps at the terminal's width (any gap between its
#: words may be a line break).
_PDM_PYTHON_WORDS = re.compile(
    r"don't\s+work\s+on\s+all\s+Python\s+versions\s+in\s+the\s+range\s+of\s+the\s+project's"
)
_PDM_SUGGESTED = re.compile(
    r"change the value of `requires-python` in pyproject\.toml to (?P<range>[^\s]{1,80}?)\.?$",
    re.MULTILINE,
)
_POETRY_SUGGESTED = re.compile(
    r"For (?P<dist>[\w.-]{1,100}), a possible solution would be to set the `python` property to "
    r'"(?P<range>[^"\n]{1,80})"'
)


def _project_python_range(evidence: Evidence) -> Optional[Finding]:
    """uv, PDM or Poetry refusing to lock a project whose declared Python range admits Pythons a
    release of TensorFlow's family does not support: the declaration to narrow."""
    text = evidence.first_text
    if "requires-python" in text.lower() and "hint:" in text:
        # uv wraps its hint at the terminal's width: read it as one line.
        flat = re.sub(r"\s+", " ", text)
        found = _UV_REQUIRES_PYTHON.search(flat)
        if found is not None:
            dist, supports = found.group("dist"), found.group("supports")
            return causes.finding(
                f"explain.{causes.platform.TF_RELEASE_NOT_FOR_PYTHON}",
                Severity.ERROR,
                causes.platform.TF_RELEASE_NOT_FOR_PYTHON,
                f"The project's requires-python admits Pythons {dist} does not support",
                _cite_head(evidence, ["includes Python versions that are not supported"])
                or found.group(0),
                causes.platform.project_python_range_fix(
                    "uv", dist, supports, found.group("like") or ""
                ),
            )
    # Each requirement of the refusal names PDM's candidate ("(from <Candidate X@V ...>)").
    if "<Candidate " in text and _PDM_PYTHON_WORDS.search(text):
        pdm = _PDM_PYTHON_RANGE.search(text)
        if pdm is not None:
            advised = _PDM_SUGGESTED.search(text)
            return causes.finding(
                f"explain.{causes.platform.TF_RELEASE_NOT_FOR_PYTHON}",
                Severity.ERROR,
                causes.platform.TF_RELEASE_NOT_FOR_PYTHON,
                f"The project's requires-python admits Pythons {pdm.group('dist')} does not "
                "support",
                _cite_head(evidence, [pdm.group(0).strip()]),
                causes.platform.project_python_range_fix(
                    "pdm",
                    pdm.group("dist"),
                    pdm.group("supports"),
                    advised.group("range") if advised else "",
                ),
            )
    if "is not compatible with some of the required packages Python requirement" in text:
        needed = _POETRY_PYTHON_RANGE.search(text)
        if needed is not None:
            dist = needed.group("dist")
            suggested = next(
                (
                    s.group("range")
                    for s in _POETRY_SUGGESTED.finditer(text)
                    if s.group("dist") == dist
                ),
                "",
            )
            return causes.finding(
                f"explain.{causes.platform.TF_RELEASE_NOT_FOR_PYTHON}",
                Severity.ERROR,
                causes.platform.TF_RELEASE_NOT_FOR_PYTHON,
                f"The project's Python range reaches Pythons {dist} does not support",
                _cite_head(evidence, [needed.group(0).strip()]),
                causes.platform.project_python_range_fix(
                    "poetry", dist, needed.group("supports"), suggested
                ),
            )
    return None


#: pip's words for an OSError while it installs (create_os_error_message in
#: https://github.com/pypa/pip/blob/23.0/src/pip/_internal/commands/install.py; "an
#: EnvironmentError" before pip 21.0), with the file Windows refused: error 206
#: (ERROR_FILENAME_EXCED_RANGE, "The filename or extension is too long"), or a file not found
#: or invalid (ENOENT, EINVAL) whose path is past MAX_PATH, where pip 21.2 and later add the
#: long path hint that a signature reads (older pips print the path alone).
_PIP_WINDOWS_PATH = re.compile(
    r"Could not install packages due to an (?:OSError|EnvironmentError): "
    r"\[(?:(?P<winerror>WinError 206)|Errno (?:2|22))\][^'\n]{0,120}"
    r"'(?P<path>[A-Za-z]:(?:\\\\|\\)[^'\n]{1,1000})'"
)


def _pip_path_too_long(evidence: Evidence) -> Optional[Finding]:
    """pip could not write a file of a package on Windows because its path is past Windows'
    260-character limit: error 206 says so; a missing file says so when its path is that
    long (a short one is missing for another reason)."""
    for found in _PIP_WINDOWS_PATH.finditer(evidence.first_text):
        # The error's text is the path's repr: a backslash is doubled.
        path = found.group("path").replace("\\\\", "\\")
        if found.group("winerror") is None and len(path) < causes.platform.NEAR_MAX_PATH:
            continue
        return causes.finding(
            f"explain.{causes.platform.WINDOWS_LONG_PATHS}",
            Severity.ERROR,
            causes.platform.WINDOWS_LONG_PATHS,
            "pip could not write a file whose path is longer than Windows allows",
            _cite_head(evidence, [found.group(0)[:80]])
            + (
                f"\nThe file's full path is {len(path)} characters."
                if len(path) >= causes.platform.NEAR_MAX_PATH
                else ""
            ),
            causes.platform.long_paths_fix(),
        )
    return None


def _user_site_tensorflow(evidence: Evidence, m: Machine) -> Optional[Finding]:
    """Frames through TensorFlow in the per-user site-packages, inside a conda Python (other
    frames are a conda installation's): conda's Pythons read the user site before their own
    site-packages, so a TensorFlow installed there with ``pip --user`` shadows the
    environment's and runs against its packages. Frames are read from the log's head, so a
    traceback cut before its exception counts."""
    paths = [m.group("path") for m in _FRAME_FILE.finditer(evidence.first_text)]
    sites = [m for m in map(_USER_SITE_TF.match, paths) if m is not None]
    conda = next((p for p in paths if _CONDA_PREFIX.search(p) and not _USER_SITE_TF.match(p)), None)
    if not sites or conda is None:
        return None
    site = sites[0].group("site")
    return causes.finding(
        f"explain.{causes.software.TF_SHADOWED_MODULE}",
        Severity.WARNING,
        causes.software.TF_SHADOWED_MODULE,
        "TensorFlow is imported from the per-user site-packages, not the environment",
        _cite_head(evidence, [sites[0].group(0)])
        + f"\nTensorFlow's frames are under {site} (the user site), the interpreter's under "
        f"a conda installation ({conda}).",
        causes.software.user_site_fix(m, site),
    )


def _pip_ignores_requires_python(
    evidence: Evidence, revealed: Revealed, machine: Machine
) -> Optional[Finding]:
    """pip before 9.0 (its version shown) failing to build a source archive: it ignores a
    release's Requires-Python, so it took a release that no longer supports this Python."""
    built = evidence.hits.get("pip-egg-info-failed")
    pip = revealed.pip_version
    if built is None or not pip or version_key(pip) >= causes.platform.PIP_REQUIRES_PYTHON:
        return None
    cause, fix = _pip_old(machine, revealed, [built])
    return causes.finding(
        f"explain.{cause}",
        Severity.ERROR,
        cause,
        f"pip {pip} ignores Requires-Python and built a release this Python cannot run",
        cite([built]),
        fix,
    )
