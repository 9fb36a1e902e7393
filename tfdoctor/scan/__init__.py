"""``tfdoctor scan``: will this code run on that TensorFlow?

Source files and notebooks are parsed, never imported or run (:mod:`tfdoctor.scan.walker`);
each use of a TensorFlow or Keras API is judged against the rules (``scan_rules.yaml``, data
with sources) and the target line's public API as listed from its wheels
(:mod:`tfdoctor.scan.api`). A use becomes a finding on a cause of the catalogue
(:mod:`tfdoctor.causes`) with its location, what happens there and the replacement.

Finding ids: ``scan.<rule id>`` for a rule, ``scan.<cause>`` for a name the target's API lacks,
``scan.unreadable`` for a file that could not be parsed, ``scan.skipped`` for one over a limit
(too large, nested too deeply: :mod:`tfdoctor.bounded`) (docs/findings.md).
"""

from __future__ import annotations

import dataclasses
import datetime
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Optional, Union

from tfdoctor import causes
from tfdoctor.causes import CAUSES, CauseId
from tfdoctor.causes import finding as cause_finding
from tfdoctor.causes.code import keras3_fix
from tfdoctor.compat import first_keras3_line
from tfdoctor.facts import Facts, PackageFacts
from tfdoctor.findings import Finding, Fix, Location, Report, Severity
from tfdoctor.machine import Machine
from tfdoctor.matrix import Matrix, load_matrix, next_minor, version_key
from tfdoctor.records import Record, record
from tfdoctor.scan.api import (
    MISSING,
    MOST_HOMES,
    OK,
    ApiIndex,
    api_for,
    bundled_lines,
    keras2_for,
    keras2_module_exports,
    keras_releases,
    load_api,
    load_early,
    load_keras,
)
from tfdoctor.scan.rules import Rule, Rules
from tfdoctor.scan.walker import SKIPPED, FileUses, MethodUse, Use, scan_path

#: Files below this count are scanned in this process: a pool costs more than it saves.
POOL_MIN_FILES = 24
#: The words a rule's fix ends with where the rule keeps Keras 2 as the other way
#: (``legacy_keras``).
KEEP_KERAS2 = " Or keep the Keras 2 code: install tf-keras and set TF_USE_LEGACY_KERAS=1."
#: Directories never entered when a directory is scanned.
SKIP_DIRS = frozenset({"__pycache__", ".git", ".hg", ".svn", ".ipynb_checkpoints", "node_modules"})

#: Namespaces TensorFlow fills from Keras: judged as the Keras 3 API they are from 2.16
#: (tf.compat.v1.keras too: Keras 3 serves it as tf.keras, tensorflow/python/util/lazy_loader.py).
_KERAS_ALIASES = (
    "tf.keras",
    "tf.losses",
    "tf.metrics",
    "tf.optimizers",
    "tf.initializers",
    "tf.compat.v1.keras",
)


#: Causes that say a file was written for TensorFlow 1.
_TF1_CAUSES = frozenset({causes.code.API_MOVED_TO_COMPAT_V1, causes.code.TF_CONTRIB_REMOVED})


def _compat_v1_home(
    name: str, compat: str, listing: ApiIndex, tf2: tuple[int, ...]
) -> Optional[ApiIndex]:
    """The listing of the newest TensorFlow 2 line (``tf2``, the line after the last 1.x, or
    later), ``listing``'s or older, whose tf.compat.v1 has ``compat``
    (``tf.compat.v1.placeholder``) while its namespace lacks ``name`` (``tf.placeholder``):
    a TensorFlow 1 name, and its last home. None when no listed line
    has ``compat``, or the newest that has it also has ``name`` (a TensorFlow 2 name, such as
    Keras 2's tf.keras names, which Keras 2's tf.compat.v1.keras mirrored)."""
    if listing.has(compat):
        return listing
    before = version_key(listing.line)
    for line in bundled_lines():  # newest first
        key = version_key(line)
        if key < before and key >= tf2:
            older = load_api(line)
            if older is not None and older.has(compat):
                return older if older.lookup(name).status == MISSING else None
    return None


class ScanError(ValueError):
    """Bad input to the scan: a path that does not exist, a target that is not a version."""


@record
class ScanOptions(Record):
    """What to scan, and for which release."""

    paths: tuple[str, ...]
    #: The release line the code is to run on (``2.21``).
    target: str
    #: With a release line: report only what changes between it and the target.
    since: Optional[str] = None
    #: Distributions installed where the code runs (normalised names); None: unknown.
    installed: Optional[frozenset[str]] = None
    #: Processes for many files (None: one per CPU); 1 scans in this process.
    workers: Optional[int] = None
    #: The version of the Python the code runs under (``3.12.1``); None: unknown.
    python: Optional[str] = None
    #: The platform key prefix where the code runs (``linux-x86_64``, ``windows-``; the
    #: matrix's keys); empty: unknown.
    platform: str = ""


# --- files -----------------------------------------------------------------------------------


def collect_files(paths: Sequence[str]) -> list[str]:
    """The ``.py`` and ``.ipynb`` files under ``paths`` (files named explicitly always count).

    Hidden directories, caches and virtual environments (a ``pyvenv.cfg``) are not entered:
    installed packages are not the project's code.
    """
    out: list[str] = []
    for path in paths:
        if Path(path).is_file():
            out.append(path)
            continue
        if not Path(path).is_dir():
            if not Path(path).exists():
                raise ScanError(f"{path}: no such file or directory")
            # A FIFO or a device named on purpose: reading it says why it is not scanned.
            out.append(path)
            continue
        for root, dirs, files in os.walk(path):
            dirs[:] = sorted(
                d
                for d in dirs
                if d not in SKIP_DIRS
                and not d.startswith(".")
                and not os.path.exists(os.path.join(root, d, "pyvenv.cfg"))  # noqa: PTH118, PTH110 - hot loop
            )
            out.extend(
                os.path.join(root, name)  # noqa: PTH118 - hot loop over many names
                for name in sorted(files)
                if name.endswith((".py", ".ipynb"))
            )
    return out


def _scan_one(args: tuple[str, tuple[str, ...]]) -> FileUses:
    path, methods = args
    return scan_path(path, methods)


def scan_files(
    files: Sequence[str], methods: Iterable[str], workers: Optional[int] = None
) -> list[FileUses]:
    """Every file's uses, in the order given; many files are parsed in a process pool."""
    names = tuple(sorted(methods))
    count = workers if workers is not None else (os.cpu_count() or 1)
    if count <= 1 or len(files) < POOL_MIN_FILES:
        return [scan_path(path, names) for path in files]
    jobs = [(path, names) for path in files]
    # Chunks big enough to amortise the pickling, small enough to keep every worker busy.
    chunk = max(1, len(files) // (count * 8))
    # concurrent.futures.process costs about 0.1 s to import; explain asks scan about names
    # without ever needing a pool.
    from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415 - slow, rarely used

    with ProcessPoolExecutor(max_workers=count) as pool:
        return list(pool.map(_scan_one, jobs, chunksize=chunk))


# --- judging ---------------------------------------------------------------------------------


@record
class Verdict(Record):
    """One use judged: the rule (or the listing's fact) and the words for the finding."""

    key: str
    cause: CauseId
    severity: Severity
    what: str
    fix: Fix
    links: tuple[str, ...]
    #: The release line from which the use breaks (empty where the API listing alone says so).
    release: str = ""
    #: The release line from which a name the installed TensorFlow lacks is there (a name a
    #: later release brought: that TensorFlow is older than the code); empty otherwise.
    since: str = ""


class Judge:
    """Judges uses against the rules and the target's API listing."""

    def __init__(self, rules: Rules, options: ScanOptions, matrix: Matrix) -> None:
        self.rules = rules
        self.matrix = matrix
        self.target = version_key(options.target)
        self.target_line = options.target
        # Where Keras 3 serves tf.keras, and the fixes of the target line, are the matrix's.
        keras3 = first_keras3_line(matrix)
        self.keras3: Optional[tuple[int, ...]] = version_key(keras3.line) if keras3 else None
        line = matrix.line_for(options.target)
        installed = (PackageFacts("tensorflow", line.latest_patch, ""),) if line else ()
        self.target_machine = Machine(Facts("", "", packages=installed), matrix)
        self.since = version_key(options.since) if options.since else None
        self.installed = options.installed
        self.python = options.python
        self.platform = options.platform
        self.api: Optional[ApiIndex] = api_for(options.target)
        #: The listing of the line the code was written for (``--from``).
        self.since_api: Optional[ApiIndex] = api_for(options.since) if options.since else None
        # TensorFlow 1 names and Keras 3's API are the same in every listing from their line
        # on: the newest listing answers for any target past those lines.
        lines = bundled_lines()
        self.newest: Optional[ApiIndex] = load_api(lines[0]) if lines else None
        #: The Keras 2 (tf-keras) the target line can run instead of Keras 3.
        self.keras2: Optional[ApiIndex] = keras2_for(options.target)
        #: Each API name a rule names -> those rules (a use looks up each of its prefixes).
        self.by_api: dict[str, list[Rule]] = {}
        for rule in rules.rules:
            for api in rule.api:
                self.by_api.setdefault(api, []).append(rule)
        self.method_rules = rules.by_method()

    def applies(self, release: tuple[int, ...]) -> bool:
        """Whether a change at ``release`` separates the code's release from the target."""
        if release > self.target:
            return False
        return self.since is None or self.since < release

    def rule_applies(self, rule: Rule) -> bool:
        """Whether ``rule`` holds on the target (changed defaults only in an upgrade plan)."""
        if rule.kind == "changed" and self.since is None:
            return False  # a changed default is news only to code written for an older line
        if not self.applies(rule.release_key):
            return False
        if rule.until and self.target >= version_key(rule.until):
            return False  # from that line on another rule says what happens
        return not (
            rule.unless_installed is not None
            and self.installed is not None
            and rule.unless_installed in self.installed
        )

    # -- names

    def judge_use(self, use: Use) -> Optional[Verdict]:
        """The verdict on one use of a name, or None when it runs as written (the first of
        :meth:`judge_use_all`)."""
        verdicts = self.judge_use_all(use)
        return verdicts[0] if verdicts else None

    def judge_use_all(self, use: Use, tf1_code: bool = False) -> list[Verdict]:
        """Every verdict on one use: each argument of a call that breaks is one (``lr=`` and
        ``decay=``), beside what the name itself does; empty when it runs as written.
        ``tf1_code``: the file was written for TensorFlow 1 (rules that say ``tf1_code``)."""
        rules = self._name_rules(use, tf1_code)
        if rules:
            return [self._verdict(rule, use.name) for rule in rules]
        verdict = self._star(use) if use.kind == "star" else self.listed(use.name)
        return [verdict] if verdict is not None else []

    def _name_rules(self, use: Use, tf1_code: bool = False) -> list[Rule]:
        """The rules a call's own arguments trigger, each, and the most specific rule on the
        name alone."""
        best: Optional[Rule] = None
        best_len = -1
        conditional: list[Rule] = []
        parts = use.name.split(".")
        for cut in range(len(parts), 0, -1):
            api = ".".join(parts[:cut])
            for rule in self.by_api.get(api, ()):
                if rule.except_api and use.name.startswith(rule.except_api):
                    continue
                if rule.tf1_code and not tf1_code:
                    continue
                specific = (
                    rule.kwarg is not None
                    or rule.needs_path
                    or rule.arg is not None
                    or rule.keras_tensor_arg
                )
                if specific:
                    if (
                        use.kind in ("call", "star")
                        and _call_matches(rule, use)
                        and self.rule_applies(rule)
                        and rule not in conditional
                    ):
                        conditional.append(rule)
                    continue
                if len(api) > best_len and self.rule_applies(rule):
                    best, best_len = rule, len(api)
        if best is not None and not any(r.cause == best.cause for r in conditional):
            return [*conditional, best]
        return conditional

    def _star(self, use: Use) -> Optional[Verdict]:
        # A bare name after `from tensorflow import *` is TensorFlow's only when TensorFlow 1
        # had it: anything else is more likely the file's own (or another star import's).
        newest = self.newest
        if newest is None or not use.name.startswith("tf."):
            return None
        rest = use.name[3:]
        if not newest.has(f"tf.compat.v1.{rest}") or newest.has(use.name):
            return None
        return self.listed(use.name)

    def listed(self, name: str) -> Optional[Verdict]:
        """The verdict of the API listing alone, whatever rule names ``name``: the name is
        missing from the target."""
        newest = self.newest
        if newest is None:
            return None
        tf1 = self._tf1_name(name, self.api or newest)
        if tf1 is not None:
            return tf1
        if name.startswith("keras.") or name.startswith(_KERAS_ALIASES):
            if name.startswith("keras.src.") or name == "keras.src":
                return None  # Keras' private tree: not API, and not ours to judge
            keras3 = self.keras3
            if keras3 is not None and self.target >= keras3 and self.applies(keras3):
                return self._keras_missing(name, newest)
        elif name.startswith(("tf_keras.src.", "tf_keras.api.")):
            return None  # tf-keras' private trees, as Keras' own
        elif not name.startswith(("tf.", "tf_keras.")):
            return None
        return self._missing(name)

    def _missing(self, name: str) -> Optional[Verdict]:
        """``name`` is not in the target's listing (with ``--from``: and was in that line's)."""
        api = self.api
        if api is None:
            return None
        found = api.lookup(name)
        if found.status != MISSING:
            return None
        gone = found.missing_at
        if self.since is None:
            what = f"`{gone}` is not in {_api_of(name, api)} (AttributeError)."
            release = ""
        else:
            # An upgrade plan reports what the upgrade removes, not what never was (or what
            # the older line's listing cannot tell).
            since_api = self.since_api
            if since_api is None or since_api.lookup(name).status != OK:
                return None
            release = self._removed_in(name)
            what = (
                f"`{gone}` is in {_api_of(name, since_api)} but not in {_api_of(name, api)}: "
                f"removed in {release} (AttributeError)."
            )
        respelled = api.respelled(name)
        renamed = _early_rename(gone)
        if renamed is not None:
            until, now, source = renamed
            what = what[: -len(" (AttributeError).")] + (
                f": TensorFlow {until} removed it for `{now}` (TensorFlow's release notes, "
                f"{source}) (AttributeError)."
            )
            usable = _usable_name(now, api)
            if usable == now:
                fix = (
                    f"Write `{now}` for `{gone}`: the code was written for TensorFlow before "
                    f"{until}."
                )
            elif usable is not None:
                # TensorFlow 2 dropped the 1.x name too (tf.summary.FileWriter) and keeps it
                # in tf.compat.v1 only: the name that runs on the target.
                fix = (
                    f"Write `{usable}` for `{gone}`: the code was written for TensorFlow before "
                    f"{until}, which renamed it `{now}`; {_api_of(now, api)} has that name "
                    "only in tf.compat.v1 (or port the code to TensorFlow 2's API)."
                )
            else:
                fix = (
                    f"Find its replacement in the release notes and API docs of this release: "
                    f"TensorFlow {until} renamed it `{now}`, which {_api_of(now, api)} lacks too."
                )
            # The release of the change: an older TensorFlow a log shows has the name, and
            # lacks it for another reason (explain drops the verdict there).
            release = release or until
        elif respelled:
            fix = _respelled_fix(respelled)
        elif name.startswith("tf.compat.v1."):
            fix = "Port this TensorFlow 1 code to the TensorFlow 2 API (see the migration guide)."
        else:
            fix = "Find its replacement in the release notes and API docs of this release."
            last = self._last_listed_with(name)
            if last is not None:
                # The listings (from the wheels) say which release still has it: the code
                # runs as written there, where its port waits.
                fix = (
                    fix[:-1]
                    + (
                        f", or run the code as written on TensorFlow {last}, the last release "
                        "whose API has it."
                    )
                    + self._wheels_for_python(last)
                )
        return self._generic(causes.code.API_REMOVED, what, fix, release=release)

    def _last_listed_with(self, name: str) -> Optional[str]:
        """The newest listed line before the target whose API has ``name`` (its latest patch,
        from the matrix, where the matrix has the line)."""
        for line in bundled_lines():  # newest first
            if version_key(line) >= self.target:
                continue
            api = load_api(line)
            if api is not None and api.lookup(name).status == OK:
                row = self.matrix.line_for(f"{line}.0")
                return row.latest_patch if row is not None else line
        return None

    def _wheels_for_python(self, release: str) -> str:
        """Where the Python the code runs under is known and ``release``'s line publishes no
        wheel for it (the matrix's line; TensorFlow 2.15 has none for Python 3.12), the words
        that say so and name the Pythons it serves; else empty."""
        line = self.matrix.line_for(release)
        if not self.python or line is None or line.has_wheels_for(self.python):
            return ""
        minor = ".".join(self.python.split(".")[:2])
        pythons = line.pythons_on()
        if not pythons:
            return ""
        return (
            f" TensorFlow {line.line} has no wheel for Python {minor}: that takes an "
            f"environment of Python {pythons[0]} to {pythons[-1]}."
        )

    def _removed_in(self, name: str) -> str:
        """The first listed line after ``--from``, up to the target, that lacks ``name``."""
        for line in sorted(bundled_lines(), key=version_key):
            key = version_key(line)
            if self.since is not None and self.since < key <= self.target:
                api = load_api(line)
                if api is not None and api.lookup(name).status == MISSING:
                    return line
        return self.target_line

    def _tf1_name(self, name: str, listing: ApiIndex) -> Optional[Verdict]:
        """A TensorFlow 1 name: missing from TensorFlow 2's namespace, kept in tf.compat.v1 by
        ``listing``'s line or, where that dropped it too, up to the newest line listed with it
        (scan's verdict, and explain's on an exception naming it)."""
        # tf.keras names too (tf.keras.backend.get_session): Keras 2's tf.compat.v1.keras kept
        # them; under Keras 3 tf.compat.v1.keras is Keras 3's, and the listing says so.
        if not name.startswith("tf.") or name.startswith("tf.compat."):
            return None
        found = listing.lookup(name)
        tf2 = self._line_after_tf1()
        if found.status != MISSING or tf2 is None or not self.applies(tf2):
            return None
        gone = found.missing_at
        compat = "tf.compat.v1." + gone[3:]
        home = _compat_v1_home(name, compat, listing, tf2)
        if home is None:
            return None
        idiom = home.renames.get(compat)
        fix = f"Use {idiom}" if idiom else "Port it to the TensorFlow 2 API (migration guide)"
        what = f"`{gone}` is TensorFlow 1 API: not in TensorFlow 2's namespace"
        if home is listing:
            what += " (AttributeError)."
            fix += f"; stop-gap: {compat}."
        else:
            what += (
                f", and tf.compat.v1 kept it only up to TensorFlow {home.line} (AttributeError)."
            )
            fix += f"; stop-gap on TensorFlow {home.line} or older: {compat}."
        # A name TensorFlow 2 moved under tf.compat.v1 is TensorFlow 1 code's: as for a rule's
        # TensorFlow 1 API (_tf1_line_words), the last 1.x line runs it unchanged.
        fix += self._last_tf1_words()
        return self._generic(
            causes.code.API_MOVED_TO_COMPAT_V1,
            what,
            fix,
            release=".".join(str(n) for n in tf2),
        )

    def _keras_missing(self, name: str, newest: ApiIndex) -> Optional[Verdict]:
        listed = "tf.keras" + name[len("keras") :] if name.startswith("keras.") else name
        if name.startswith(("tf.losses", "tf.metrics", "tf.optimizers", "tf.initializers")):
            listed = "tf.keras." + name[3:]
        # Standalone `keras.X` is listed as Keras 3's own API; tf.keras as TensorFlow serves it.
        found = newest.lookup(name if name.startswith("keras.") else listed)
        if found.status != MISSING:
            return None
        gone = found.missing_at
        keras3 = ".".join(str(n) for n in self.keras3 or ())
        dropped = self._keras3_last_with(name)
        if dropped is not None:
            last_with, version = dropped
            fix = "Find its replacement in the Keras release notes"
            if self._keras_pin_admits(version):
                fix += f'; stop-gap: pip install "keras<{next_minor(last_with)}"'
            return self._generic(
                causes.code.API_REMOVED,
                f"`{gone}` is Keras 3 API up to Keras {version}, not in Keras {newest.keras} "
                "(AttributeError or ImportError).",
                fix + ".",
                release=keras3,
            )
        keras2 = self.keras2
        legacy = keras2.lookup(_keras2_name(name)).status if keras2 is not None else None
        last = name.rsplit(".", 1)[-1]
        idiom = _keras_idiom(newest, gone, last, name)
        if keras2 is not None and legacy == MISSING:
            # Keras 2's public API lacks it too: tf-keras would not bring it back (Keras 2.6 to
            # 2.12's own modules, such as keras.utils.np_utils, were never API). An upgrade
            # plan reports it only where the older line had it.
            since_api = self.since_api
            if self.since is not None and (since_api is None or not since_api.has(name)):
                return None
            what = (
                f"`{gone}` is neither in Keras {newest.keras} nor in Keras 2's public API "
                f"(tf-keras {keras2.keras}): AttributeError or ImportError."
            )
            respelled = newest.respelled(name)
            if respelled:
                return self._generic(causes.code.API_REMOVED, what, _respelled_fix(respelled))
            moved = [n for n in keras2_module_exports(gone) if newest.has(n)]
            if moved and not any(n.rsplit(".", 1)[-1] == last for n in moved):
                # The module itself is asked for (np_utils), not one of its names.
                return self._generic(
                    causes.code.API_REMOVED,
                    what + " It was one of Keras 2's own modules, never API itself; the names "
                    "it exported are.",
                    f"Use the public names it exported instead: {', '.join(moved)}.",
                )
            if idiom:
                return self._generic(
                    causes.code.KERAS3_BEHAVIOUR_CHANGE, what, f"Use {idiom}.", release=keras3
                )
            return self._generic(causes.code.API_REMOVED, what, _moved_fix(newest, keras2, name))
        where = ""
        if keras2 is not None and legacy == OK:
            where = f": it is Keras 2 API (tf-keras {keras2.keras} has it)"
        return self._generic(
            causes.code.KERAS3_BEHAVIOUR_CHANGE,
            f"`{gone}` does not exist in Keras 3, which serves tf.keras from TensorFlow 2.16 "
            f"(AttributeError or ImportError){where}.",
            (f"Use {idiom}" if idiom else "Port it to the Keras 3 API (migration guide)")
            + "; or keep Keras 2: install tf-keras and set TF_USE_LEGACY_KERAS=1.",
            legacy_keras=True,
            release=".".join(str(n) for n in self.keras3 or ()),
        )

    def _keras_pin_admits(self, version: str) -> bool:
        """Whether the target line's ``keras`` requirement admits Keras ``version`` (a
        stop-gap pin below the range would not install beside TensorFlow)."""
        line = self.matrix.line_for(self.target_line)
        spec = line.pins.keras if line is not None else None
        if not spec:
            return True
        from packaging.specifiers import InvalidSpecifier, SpecifierSet  # noqa: PLC0415 - 40 ms

        try:
            return version in SpecifierSet(spec)
        except InvalidSpecifier:
            return True

    def _keras3_last_with(self, name: str) -> Optional[tuple[str, str]]:
        """(release, version) of the newest Keras 3 listed that has ``name`` when the newest
        does not: a name Keras 3 itself dropped. Only for standalone ``keras.X``."""
        if not name.startswith("keras."):
            return None
        for release in keras_releases("keras")[1:]:
            if version_key(release) < (3,):
                break
            listing = load_keras("keras", release)
            if listing is not None and listing.has(name):
                return release, listing.keras
        return None

    def _generic(
        self, cause: CauseId, what: str, fix: str, legacy_keras: bool = False, release: str = ""
    ) -> Verdict:
        commands = self._legacy_commands() if legacy_keras else ()
        links = CAUSES[cause].links
        return Verdict(cause, cause, Severity.ERROR, what, Fix(fix, commands), links, release)

    def _legacy_commands(self) -> tuple[str, ...]:
        """The catalogue's commands for Keras 2 code on the target line."""
        return keras3_fix(self.target_machine).commands

    def rule_verdict(self, rule: Rule) -> Verdict:
        """The verdict of ``rule`` itself, for evidence that names the rule, not a use."""
        return self._verdict(rule, rule.api[0] if rule.api else rule.method or "")

    def _last_with(self, rule: Rule) -> Optional[str]:
        """The last release line before ``rule``'s removal, of the same major (the matrix's)."""
        before = [
            x.line
            for x in self.matrix.lines
            if x.key < rule.release_key and x.key[:1] == rule.release_key[:1]
        ]
        return max(before, key=version_key) if before else None

    def _tf1_line_words(self, rule: Rule) -> str:
        """For TensorFlow 1 API that TensorFlow 2 moved under tf.compat.v1: the last 1.x line
        of the matrix, where the code runs unchanged, with its Pythons, in words ("" where the
        rule is of a later line or the matrix has no 1.x line)."""
        if not self._of_line_after_tf1(rule):
            return ""  # moved later, within TensorFlow 2: the 1.x line is no nearer
        return self._last_tf1_words()

    def _of_line_after_tf1(self, rule: Rule) -> bool:
        """Whether ``rule`` is of the line that followed the matrix's last 1.x line (2.0 after
        1.15): the release where TensorFlow 1 code stopped running unchanged."""
        return rule.release_key[:2] == self._line_after_tf1()

    def _line_after_tf1(self) -> Optional[tuple[int, ...]]:
        """The matrix's line after its last 1.x line (:attr:`Matrix.line_after_tf1`), as a key."""
        after = self.matrix.line_after_tf1
        return after.key if after is not None else None

    def _last_tf1_words(self, lead: str = "") -> str:
        """The last 1.x line of the matrix, where TensorFlow 1 code runs unchanged, with its
        Pythons, in words, and the release to install: where the code's Python is known and
        the line's latest patch has no wheel for it, the newest patch the matrix says has one
        (1.15.0 for Python 2.7, with the platforms of those wheels), else an environment of a
        Python the line has wheels for ("" where the matrix has no 1.x line). ``lead``: the
        words before the line's number (the offer to run the code there by default)."""
        last = self.matrix.last_tf1_line
        if last is None:
            return ""
        pythons = sorted({py for pys in last.python.values() for py in pys}, key=version_key)
        within = f", in an environment of Python {pythons[0]} to {pythons[-1]}" if pythons else ""
        run = (lead or " Or run the TensorFlow 1 code unchanged on") + f" TensorFlow {last.line}"
        run += "" if lead else ", the last 1.x line"
        latest = f'(pip install "tensorflow=={last.latest_patch}")'
        if not self.python or last.has_wheels_for(self.python, self.platform):
            return f"{run}{within} {latest}."
        minor = ".".join(self.python.split(".")[:2])
        earlier = self.matrix.newest_release_with_wheels(minor, self.platform, last.line)
        if earlier is None or not pythons:
            here = " here" if self.platform else ""
            return f"{run}, which has no wheel for Python {minor}{here}{within} {latest}."
        # Where the platform is not known, those the wheels are for are said (the matrix's
        # platform keys, as `tfdoctor matrix` prints them).
        by_key = self.matrix.release_pythons(earlier) or {}
        keys = tuple(
            key
            for key, ps in sorted(by_key.items())
            if minor in ps and key.startswith(self.platform)
        )
        where = ", ".join(keys)
        return (
            f"{run}: its last release with wheels for Python {minor} is {earlier} (for {where}; "
            f'pip install "tensorflow=={earlier}"); its latest, {last.latest_patch}, is for '
            f"Python {pythons[0]} to {pythons[-1]}."
        )

    def _verdict(self, rule: Rule, name: str) -> Verdict:
        text = rule.replacement
        last = self._last_with(rule) if rule.effect == "module-removed" else None
        if last is not None:
            # Code that cannot move yet runs on the last line that had the module.
            text += (
                f" Stop-gap: stay on TensorFlow {last}, the last release with it "
                f'(pip install "tensorflow=={last}.*").'
            )
        if rule.compat:
            stopgap = "tf.compat.v1." + name[3:] if name.startswith("tf.") else ""
            if stopgap:
                text += f" Stop-gap: {stopgap} (TensorFlow 1 behaviour inside TensorFlow 2)."
            text += self._tf1_line_words(rule)
        elif rule.cause in _TF1_CAUSES and self._of_line_after_tf1(rule):
            # TensorFlow 1 code a rule of 2.0 judges (tf.contrib's, keep_prob's) runs unchanged
            # on the last 1.x line: its release for the code's Python, read from the matrix,
            # said as a sentence of its own after the rule's replacement.
            text += self._last_tf1_words(" It runs unchanged on")
        commands: list[str] = [f"pip install {pkg}" for pkg in rule.install]
        if rule.legacy_keras:
            text += KEEP_KERAS2
            commands.extend(self._legacy_commands())
        links = tuple(s.url for s in rule.sources)
        return Verdict(
            rule.id,
            rule.cause,
            Severity(rule.severity),
            rule.what,
            Fix(text, tuple(commands)),
            links,
            rule.release,
        )

    # -- methods

    def judge_method(self, call: MethodUse, homes: Sequence[str] = ()) -> Optional[Verdict]:
        """The verdict on ``receiver.method(...)`` (or the read ``receiver.attribute``), or
        None. With ``homes``, the public names of the receiver's class (an error's words name
        the class, not a variable), only a rule whose ``classes`` hold one of them judges it:
        a rule written for a variable's name (``model``, ``classifier``) would take an
        estimator's class for a Keras model."""
        key = "." + call.method if call.attribute else call.method
        for rule in self.method_rules.get(key, ()):
            receiver = rule.receiver
            if homes and not any(
                h.startswith(f"{module}.") for module in rule.classes for h in homes
            ):
                continue
            # The receiver's name says what it is (model.save), or its assignment does
            # (opt = keras.optimizers.Adam(...); opt.lr); made by another package's call
            # (model = Word2Vec(...)), it is not Keras' whatever its name.
            if receiver is not None and call.receiver_kind == "other":
                continue
            if receiver is not None and not (
                receiver.search(call.receiver)
                or (call.receiver_kind and receiver.search(call.receiver_kind))
            ):
                continue
            if not _call_matches(rule, call):
                continue
            if self.rule_applies(rule):
                return self._verdict(rule, call.method)
        return None


def _keras2_name(name: str) -> str:
    """The name in tf-keras' listing of a Keras name as written (``keras.X``, ``tf.keras.X``
    and ``tf.losses.X`` are ``tf_keras.X``; ``tf.compat.v1.keras.X`` is listed as such)."""
    if name.startswith("tf.compat.v1.keras"):
        return name
    for prefix in ("keras", "tf.keras"):
        if name == prefix or name.startswith(prefix + "."):
            return "tf_keras" + name[len(prefix) :]
    return "tf_keras" + name[len("tf") :]


def _api_of(name: str, api: ApiIndex) -> str:
    """Whose API a name is judged against: ``TensorFlow 2.15's public API``."""
    if name.startswith("tf.compat.v1."):
        return f"TensorFlow {api.line}'s tf.compat.v1"
    if name.startswith("tf_keras.") and api.tf_keras:
        return f"the tf-keras {api.tf_keras} of TensorFlow {api.line}"
    if name.startswith("keras.") and api.keras:
        return f"the Keras {api.keras} of TensorFlow {api.line}"
    return f"TensorFlow {api.line}'s public API"


def _early_rename(name: str) -> Optional[tuple[str, str, str]]:
    """(the release that removed it, its new name, the source) for a name TensorFlow's release
    notes say a release before 1.9 removed for another (``tf.select``: 1.0, ``tf.where``), and
    no release brought back (tfdoctor/scan/tf_early.txt); None otherwise."""
    spans = load_early().spans_of(name)
    last = max(spans, key=lambda s: version_key(s.until or "99"), default=None)
    if last is None or not last.until or not last.now:
        return None
    return last.until, last.now, last.source


def _usable_name(now: str, api: ApiIndex) -> Optional[str]:
    """The name the target's listing ``api`` has for an early release's replacement ``now``:
    ``now`` itself, else its tf.compat.v1 name; None where it has neither."""
    if api.lookup(now).status == OK:
        return now
    compat = "tf.compat.v1." + now[len("tf.") :]
    return compat if now.startswith("tf.") and api.lookup(compat).status == OK else None


def _respelled_fix(respelled: str) -> str:
    """Use the name as the API spells it."""
    return f"Use {respelled}: the API spells the name so (it differs in case or underscores)."


def _keras_root(name: str) -> str:
    """The root of a Keras name as the code spells it: ``keras`` or ``tf.keras``."""
    return "keras" if name.startswith("keras") else "tf.keras"


def _moved_fix(newest: ApiIndex, keras2: ApiIndex, name: str) -> str:
    """For a Keras name neither Keras 3 nor Keras 2's public API has where it was asked
    (multi-backend Keras' ``keras.engine.topology.get_source_inputs``): the public names of
    that last part the newest Keras exports, where they are few; else look the name up."""
    root = _keras_root(name)
    last = name.rsplit(".", 1)[-1]
    homes = [] if last.startswith("_") else newest.homes(last, root)
    if not homes or len(homes) > MOST_HOMES:
        return "Check the name; find the API meant in the Keras API docs."
    kept = all(keras2.has(_keras2_name(home)) for home in homes)
    return (
        f"Keras {newest.keras} exports `{last}` as {' or '.join(homes)}"
        + (" (Keras 2's public API too)" if kept else "")
        + ": import it from there; the module the code names was an older Keras' own."
    )


def _keras_idiom(api: ApiIndex, gone: str, last: str, name: str) -> Optional[str]:
    """The Keras 3 name of a Keras 2 one: the same name in an enclosing module, or keras.ops.

    A module is no such name: ``tf.experimental`` is another API than the ``experimental``
    module Keras 2 had under ``tf.keras.mixed_precision``."""
    root = _keras_root(name)
    parts = gone.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        module = ".".join(parts[:cut])
        candidate = f"{module}.{last}"
        if candidate != name and api.has(candidate) and candidate not in api.modules:
            return candidate
    if ".backend." in name and api.has(f"{root}.ops.{last}"):
        return f"{root}.ops.{last}"
    return None


def _call_matches(rule: Rule, call: Union[Use, MethodUse]) -> bool:
    """Whether a call's arguments are those ``rule`` is about (its keyword, with the value
    asked; its path; its positional argument)."""
    if rule.kwarg is not None:
        value = dict(call.kwarg_values).get(rule.kwarg)
        if value is None and rule.kwarg in call.kwargs:
            value = "?"  # a use built without values (evidence that is not source)
        if rule.kwarg_value == "not-true":
            if value not in (None, "false"):
                return False
        elif value is None or (rule.kwarg_value is not None and value != rule.kwarg_value):
            return False
    if rule.needs_path and not _path_matches(rule, call.path_arg):
        return False
    if rule.keras_tensor_arg and not (isinstance(call, Use) and call.keras_tensor_args):
        return False
    if rule.arg is not None and rule.arg_pattern is not None:
        positional = call.positional if isinstance(call, Use) else ()
        if len(positional) <= rule.arg or not rule.arg_pattern.search(positional[rule.arg]):
            return False
    return True


def _path_matches(rule: Rule, path: Optional[str]) -> bool:
    if path is None:
        return False  # a path known only at run time: the rule cannot tell
    lowered = path.lower()
    if rule.path_suffix and not lowered.endswith(rule.path_suffix):
        return False
    return not (rule.path_not_suffix and lowered.endswith(rule.path_not_suffix))


# --- the report ------------------------------------------------------------------------------


def methods_of(rules: Rules) -> frozenset[str]:
    """The method names the rules ask the walker to keep (``.name``: an attribute read), and
    ``~Name`` for the API calls whose arguments a rule reads beyond their keywords' names (a
    path, a keyword's value, a positional argument: ModelCheckpoint, Input, dropout): the
    walker records those, and follows a path built at run time, only for these calls and the
    methods."""
    detailed = {
        f"~{api.rsplit('.', 1)[-1]}"
        for r in rules.rules
        if r.needs_path or r.kwarg_value is not None or r.arg is not None
        for api in r.api
    }
    return frozenset(rules.by_method()) | detailed


def judge_files(
    files: Sequence[FileUses],
    rules: Rules,
    options: ScanOptions,
    matrix: Optional[Matrix] = None,
) -> list[Finding]:
    """The findings of every file, in file then position order (``matrix``: the bundled)."""
    judge = Judge(rules, options, matrix if matrix is not None else load_matrix())
    out: list[Finding] = []
    for found in files:
        for error in found.errors:
            if error.startswith(SKIPPED):
                out.append(
                    Finding(
                        "scan.skipped",
                        Severity.UNKNOWN,
                        f"{found.path}: not scanned, {error[len(SKIPPED) :]}",
                        "The file was not checked: it is over a limit scan puts on what it "
                        "parses, so that one file cannot take the memory or time of the whole "
                        "scan (docs/scan.md, Limits).",
                        check="scan",
                        location=Location(found.path, 1, 1),
                    )
                )
                continue
            out.append(
                Finding(
                    "scan.unreadable",
                    Severity.UNKNOWN,
                    f"{found.path}: could not be parsed ({error})",
                    "The file was not checked: Python could not parse it (Python 2 code, "
                    "a syntax error, not UTF-8).",
                    check="scan",
                    location=Location(found.path, _line_of(error), 1),
                )
            )
        out.extend(_file_findings(judge, found))
    return out


def _line_of(error: str) -> int:
    for word in error.replace(":", " ").split():
        if word.isdigit():
            return int(word)
    return 1


def _file_findings(judge: Judge, found: FileUses) -> list[Finding]:
    items: list[tuple[tuple[int, int, int], Finding]] = []
    said: set[tuple[str, str]] = set()  # (binding, verdict key) an import line already said
    # One finding per line and cause: `tf.logging.set_verbosity(tf.logging.INFO)` is one fix.
    seen: set[tuple[Optional[int], int, str]] = set()
    uses = sorted(found.uses, key=lambda u: (u.cell or 0, u.line, u.column))
    judged = [judge.judge_use_all(use) for use in uses]
    # A file that uses TensorFlow 1 API was written for it: its arguments mean what
    # TensorFlow 1 meant (tf.nn.dropout(x, 0.5) keeps half).
    if any(v.cause in _TF1_CAUSES for verdicts in judged for v in verdicts):
        judged = [judge.judge_use_all(use, tf1_code=True) for use in uses]
    for use, verdicts in zip(uses, judged):
        for verdict in verdicts:
            if use.kind == "import" and use.binding:
                said.add((use.binding, verdict.key))
            elif use.binding and (use.binding, verdict.key) in said:
                continue  # the import of this name already carries the finding
            spot = (use.cell, use.line, verdict.key)
            if spot in seen:
                continue
            seen.add(spot)
            items.append(_item(found, use.written, use.line, use.column, use.cell, verdict))
    for call in found.methods:
        said_of_call = judge.judge_method(call)
        if said_of_call is not None:
            written = f"{call.receiver}.{call.method}"
            items.append(_item(found, written, call.line, call.column, call.cell, said_of_call))
    items.sort(key=lambda item: item[0])
    return [finding for _, finding in items]


def _item(
    found: FileUses, written: str, line: int, column: int, cell: Optional[int], verdict: Verdict
) -> tuple[tuple[int, int, int], Finding]:
    path = found.path
    where = f"{path}:{line}:{column}" if cell is None else f"{path}:cell {cell}:{line}:{column}"
    made = cause_finding(
        f"scan.{verdict.key}",
        verdict.severity,
        verdict.cause,
        f"{where}: {written}",
        verdict.what,
        verdict.fix,
        verdict.links,
    )
    file_line = None
    if cell is not None and 0 < cell <= len(found.cell_lines) and found.cell_lines[cell - 1]:
        file_line = found.cell_lines[cell - 1] + line - 1
    where_now = Location(path, line, column, cell, file_line)
    located = dataclasses.replace(made, check="scan", location=where_now)
    return (cell or 0, line, column), located


def check_lines(options: ScanOptions, matrix: Matrix) -> None:
    """ScanError unless ``--target`` and ``--from`` are release lines ``matrix`` knows, the
    one before the other: the rules and fixes of any other line would be guesses."""
    known = f"{matrix.lines[-1].line} to {matrix.lines[0].line}" if matrix.lines else "none"
    for flag, value, example in (
        ("--target", options.target, "2.21"),
        ("--from", options.since, "2.15"),
    ):
        if value is None:
            continue
        if not version_key(value):
            raise ScanError(f"{flag} {value!r} is not a release line such as {example}")
        if matrix.line_for(value) is None:
            raise ScanError(
                f"{flag} {value}: not a TensorFlow release line the matrix knows ({known})"
            )
    if options.since is not None and version_key(options.since) > version_key(options.target):
        raise ScanError(
            f"--from {options.since} is newer than --target {options.target}: an upgrade plan "
            "goes from an older line to a newer one"
        )


def scan(
    options: ScanOptions, rules: Rules, version: str, matrix: Optional[Matrix] = None
) -> Report:
    """Scan the files under ``options.paths`` for uses that break on ``options.target``
    (release knowledge from ``matrix``, by default the bundled one)."""
    table = matrix if matrix is not None else load_matrix()
    check_lines(options, table)
    files = collect_files(options.paths)
    found = scan_files(files, methods_of(rules), options.workers)
    findings = judge_files(found, rules, options, table)
    collected = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    return Report(Facts(tfdoctor_version=version, collected_at=collected), tuple(findings))
