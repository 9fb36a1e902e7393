"""A nightly build that lacks a name of its own package which the releases of its line have.

``No module named 'keras.backend'`` under keras-nightly 3.3.3.dev2024061903, or ``module
'tensorflow' has no attribute 'X'`` under tf-nightly 2.18.0.dev20240617, where the bundled
listings give the line before, every release of that line and the later ones the name: the
name was there before the build's cycle began and is in the release it led to, so the build
itself lacks it, a
defect of that day's build (tf-build-regression), which another nightly or the release does
not carry. A name the line's release lacks too is no build's defect: the API readings
(api-removed, a later release's name) judge it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Optional

from tfdoctor import causes
from tfdoctor.evidence.pyerrors import name_asked
from tfdoctor.evidence.traceback import Traceback
from tfdoctor.explain.exceptions import last_failure
from tfdoctor.explain.packages import own_module_file
from tfdoctor.facts import PackageFacts
from tfdoctor.findings import Finding, Severity
from tfdoctor.machine import MATRIX_DISTRIBUTIONS, NIGHTLY_DISTRIBUTIONS, Machine
from tfdoctor.matrix import version_key
from tfdoctor.modules import modules


def _installed_nightly(owner: str, m: Machine) -> Optional[PackageFacts]:
    """The nightly build of the distribution ``owner`` (``tensorflow``, ``keras``) the log
    shows installed, or None: TensorFlow's own nightlies (tf-nightly and its variants) for
    ``tensorflow``, the module table's nightly distributions (keras-nightly) for the others.
    None too where the log shows a release of the same package installed beside it: both
    write that package, so which one's files the import read is not known (and removing
    either takes files of the other)."""
    if owner == "tensorflow":
        tf = m.tf
        if tf is None or tf.name not in NIGHTLY_DISTRIBUTIONS:
            return None
        beside = any(m.facts.package(x) is not None for x in sorted(MATRIX_DISTRIBUTIONS))
        return None if beside else tf
    table = modules()
    if m.facts.package(owner) is not None:
        return None
    return next(
        (
            found
            for dist, release in sorted(table.nightlies.items())
            if release == owner and (found := m.facts.package(dist)) is not None
        ),
        None,
    )


def _lines_having(owner: str, name: str, line: str) -> tuple[str, ...]:
    """The listed release lines of ``owner`` around a nightly build of ``line`` (oldest first):
    the line before it, ``line`` itself and every later one, where all of them are bundled
    and have ``name``; empty otherwise. The line before shows the name was there before the
    build's development cycle began (a name added during it, which an early nightly lacks, is
    no defect of that build), and for Keras a later line shows the name kept after it: Keras
    wrote the version of its last release into its nightlies until 3.11 (keras-team/keras
    keras/src/version.py, set to 3.4.0 on 2024-06-24, the day of v3.4.0; to 3.12.0 on
    2025-08-11, before v3.12.0), so keras-nightly 3.3.3.dev2024061903 is a build on the way
    to 3.4, and the name may have left there. A line without a listing, or one that lacks
    the name, says nothing of a build's defect."""
    from tfdoctor.scan.api import (  # noqa: PLC0415 - scan loads on demand
        ApiIndex,
        bundled_lines,
        keras_releases,
        load_api,
        load_keras,
    )

    listing: Callable[[str], Optional[ApiIndex]]
    if owner == "tensorflow":
        lines, listing = bundled_lines(), load_api
    elif owner == "keras":
        lines, listing = keras_releases("keras"), lambda release: load_keras("keras", release)
    else:
        return ()
    ordered = sorted(lines, key=version_key)
    if line not in ordered:
        return ()
    at = ordered.index(line)
    # TensorFlow's nightlies carry the version of the release they lead to (the line itself),
    # Keras' that of the release before or after the build: a later line is asked for.
    after = 1 if owner == "keras" else 0
    if at == 0 or at + after >= len(ordered):
        return ()
    span = ordered[at - 1 :]
    if not all((index := listing(x)) is not None and index.has(name) for x in span):
        return ()
    return tuple(span)


def _asked_name(tb: Traceback) -> Optional[tuple[str, str]]:
    """(the distribution whose package lacks the name, the name's public spelling) of a name
    the exception says a module of TensorFlow or Keras lacks; None otherwise."""
    from tfdoctor.scan.knowledge import public_name  # noqa: PLC0415 - scan loads on demand

    asked = name_asked(tb.message)
    if asked is None:
        return None
    owner = modules().distribution(asked.module.split(".")[0])
    base = public_name(asked.module)
    if owner not in ("tensorflow", "keras") or base is None:
        return None
    root = "tf" if owner == "tensorflow" else "keras"
    if base != root and not base.startswith(f"{root}."):
        return None  # a module served from the other package (tf.keras from keras)
    return owner, f"{base}.{asked.name}"


def nightly_own_name_finding(tracebacks: Sequence[Traceback], m: Machine) -> Optional[Finding]:
    """The last exception's missing name, where it is a name of the package a nightly build
    the log shows installs, and every bundled release of the build's line (and each later
    one) has it: that build's defect, an error. None otherwise."""
    tb = last_failure(tracebacks)
    if tb is None or tb.circular_import is not None:
        return None
    if any(own_module_file(f, x) for f in tb.frames for x in ("tensorflow", "keras")):
        return None  # the user's own tensorflow.py or keras.py was imported: no release's
    asked = _asked_name(tb)
    if asked is None:
        return None
    owner, name = asked
    nightly = _installed_nightly(owner, m)
    found = causes.runtime.unreleased_build(nightly.version) if nightly is not None else None
    if nightly is None or found is None or found[0] != causes.runtime.TF_BUILD_REGRESSION:
        return None
    final = found[1]
    line = ".".join(final.split(".")[:2])
    having = _lines_having(owner, name, line)
    if not having:
        return None
    release = modules().release_of(nightly.name) if owner != "tensorflow" else "tensorflow"
    span = having[0] if len(having) == 1 else f"{having[0]} to {having[-1]}"
    return causes.unreleased_build_finding(
        m,
        f"explain.{causes.runtime.TF_BUILD_REGRESSION}",
        Severity.ERROR,
        nightly.name,
        nightly.version,
        summary=f"The nightly build {nightly.name} {nightly.version} lacks `{name}`, which its "
        "releases have: the build's own defect",
        detail="\n".join(
            (
                f"{tb.where}: {tb.type}: {tb.message}",
                f"The log shows {nightly.name} {nightly.version}, a nightly build of {release}'s "
                f"{line} line, and `{name}` is a name of {release} itself: the bundled "
                f"listings of {release} {span} have it. Code written for those releases runs "
                "there, so the build that lacks the name was built or packaged without it.",
            )
        ),
    )
