"""What a log says of installed packages and their requirements, in the words of the tools
that checked them: pip's conflict reports, and the version checks companions run as they import.

pip reports a requirement the environment breaks in one of three shapes
(https://github.com/pypa/pip/blob/24.0/src/pip/_internal/commands/install.py,
``_warn_about_conflicts``, and ``.../resolution/resolvelib/factory.py``,
``_report_single_requirement_conflict`` / ``get_installation_error``):

- ``X 1.0 requires Y<2,>=1, but you have Y 2.3 which is incompatible.`` (pip 20.3 and
  later; ``but you'll have`` in 20.2, ``has requirement Y<2, but you'll have`` before;
  ``pip check``: ``X 1.0 has requirement Y<2,>=1, but you have Y 2.3.``,
  https://github.com/pypa/pip/blob/24.0/src/pip/_internal/commands/check.py);
- ``X 1.0 requires Y, which is not installed.``;
- ``ResolutionImpossible``: under ``The conflict is caused by:``, ``The user requested
  Y==2.3`` beside ``X 1.0 depends on Y<2 and >=1``, or two packages' ranges on one name
  (``X 1.0 depends on Y==1.2`` beside ``Z 2.0 depends on Y>=1.3``).

pipenv lists the ranges it could not meet together under ``There are incompatible versions in
the resolved dependencies:``, one per line: ``Y<2,>=1 (from X==1.0->-r ...)``.

Companions that need a particular TensorFlow check it as they import and say so in a sentence
of their own (:data:`IMPORT_CHECKS`). Every value read here is *observed*: what pip or the
package printed, never what it implies.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Optional

from tfdoctor.evidence.conda import CONDA_TENSORFLOW, CondaRow, list_row_at, listed_rows
from tfdoctor.evidence.installer import uv_interface
from tfdoctor.facts import TENSORBOARD_DISTRIBUTIONS, TF_DISTRIBUTIONS, normalize_name
from tfdoctor.modules import distribution_of
from tfdoctor.records import Record, record

#: Conflicts and import checks kept per log.
MAX_CONFLICTS = 20

_NAME = r"[A-Za-z0-9][A-Za-z0-9._-]*"
_VERSION = r"\d[\w.+!-]*?"
# A specifier as pip prints it: `<2.3.0,>=2.2.0`, `~=1.19.2`, `==2.0.0` (none for "any").
# One parse of each operator (``===``, a two-character one, or ``<``/``>``): optional
# characters that could match the same ``=`` make a failing line backtrack exponentially.
_OP = r"(?:===|[<>!=~]=|[<>])"
_SPEC = rf"(?:{_OP}\s*[\w.*+!-]+(?:\s*,\s*{_OP}\s*[\w.*+!-]+)*)?"

# pip prints a requirement's environment markers after it (`; platform_machine != "arm64"`):
# they say where the requirement applies, and pip reports it only where it does.
_MARKERS = r"(?:\s*;[^,\n]*)?"

_INSTALLED = re.compile(
    # Tried only where a run of a name's characters starts (here and in _MISSING): at each
    # character of a long run the search would take quadratic time.
    rf"(?<![A-Za-z0-9._-])[._-]*(?P<req>{_NAME}) (?P<rv>{_VERSION}) (?:requires|has requirement) "
    rf"(?P<target>{_NAME})(?:\[[^\]]*\])?(?P<spec>{_SPEC}){_MARKERS}, but you(?P<will>'ll)? have "
    rf"(?P<have_name>{_NAME}) (?P<have>{_VERSION})"
    # `pip check` ends the same report without the verdict: "X 1.0 has requirement Y<2, but
    # you have Y 2.3." (commands/check.py).
    r"(?:(?:\.(?=\s|$))? which is incompatible|\.(?=\s|$))"
)
_MISSING = re.compile(
    rf"(?<![A-Za-z0-9._-])[._-]*(?P<req>{_NAME}) (?P<rv>{_VERSION}) "
    rf"requires (?P<target>{_NAME})(?:\[[^\]]*\])?"
    rf"(?P<spec>{_SPEC}), which is not installed"
)
#: A root requirement (``The user requested numpy==1.26``), or one of a constraints file
#: (``-c``), which pip names apart: ``The user requested (constraint) flatbuffers==2.0.7``
#: (pip 21.2 on: factory.py, ``get_installation_error``,
#: https://github.com/pypa/pip/blob/24.0/src/pip/_internal/resolution/resolvelib/factory.py).
_REQUESTED = re.compile(
    rf"The user requested (?:\(constraint\) )?(?P<target>{_NAME})(?:\[[^\]]*\])?(?P<spec>{_SPEC})"
)
#: pipenv's line of one range it could not meet with the others.
_PIPENV_RANGE = re.compile(
    rf"^[ \t]+(?P<target>{_NAME})(?:\[[^\]]*\])?(?P<spec>{_SPEC}) \(from "
    rf"(?P<req>{_NAME})(?:\[[^\]]*\])?==(?P<rv>{_VERSION})(?=->|\))",
    re.MULTILINE,
)
#: The requirer may carry the extras it was asked with (``python-doctr[tf-cpu] 0.5.1a0``,
#: ``tensorflow[and-cuda] 2.15.0``), as pip prints the candidate. It starts a name (not
#: inside one): a start inside a long run of name characters would rescan it (quadratic).
_DEPENDS = re.compile(
    rf"(?<![\w.-])(?P<req>{_NAME})(?:\[[^\]\n]{{0,200}}\])? (?P<rv>{_VERSION}) depends on "
    rf"(?P<target>{_NAME})(?:\[[^\]]*\])?"
    rf"(?P<spec>(?:{_OP}\s*[\w.*+!-]+(?:\s*(?:,|and)\s*{_OP}\s*[\w.*+!-]+)*)?)"
)

#: pip's notice as it drops a candidate and the requirement that made it (pip's
#: resolution/resolvelib/reporter.py): "Will try a different candidate, due to conflict:" then
#: "    A 1.2 depends on B~=3.0".
_BACKTRACK = re.compile(
    r"Will try a different candidate, due to conflict:[ \t]*\r?\n[ \t]*" + _DEPENDS.pattern
)


#: setuptools' pkg_resources refusing an installed distribution as an entry point or
#: ``pkg_resources.require`` resolves it: ``ContextualVersionConflict: (numpy 1.23.3
#: (/site-packages), Requirement.parse('numpy~=1.19.2'), {'tensorflow'})`` names what is
#: installed, the requirement it breaks and who requires it (pkg_resources/__init__.py).
_PKG_RESOURCES_CONFLICT = re.compile(
    rf"\((?P<have_name>{_NAME}) (?P<have>{_VERSION}) \([^)\n]{{0,400}}\), Requirement\.parse\("
    rf"'(?P<target>{_NAME})(?:\[[^\]]*\])?(?P<spec>{_SPEC})[^'\n]*'\), "
    rf"\{{(?P<requirers>[^}}\n]*)\}}\)"
)
#: ``DistributionNotFound: The 'h5py' distribution was not found and is required by tensorflow``.
#: "required by the application" is a script's own ``__requires__``, no distribution's
#: (pkg_resources/__init__.py, ``DistributionNotFound.requirers_str``).
_PKG_RESOURCES_MISSING = re.compile(
    rf"The '(?P<target>{_NAME})(?:\[[^\]]*\])?(?P<spec>{_SPEC})[^'\n]*' distribution was not "
    rf"found and is required by (?!the application\b)(?P<requirers>{_NAME}(?:, {_NAME})*)"
)


@record
class Conflict(Record):
    """One requirement pip found broken, as it printed it (observed)."""

    #: The distribution that declares the requirement (PEP 503 name) and its version.
    requirer: str
    requirer_version: str
    #: What it requires (PEP 503 name) and the specifier; empty for any version.
    target: str
    spec: str
    #: ``installed``: ``have`` is the version installed; ``requested``: ``have`` is the
    #: specifier the user asked for (pip installed nothing); ``missing``: not installed;
    #: ``backtrack``: pip dropped the requirer's candidate over this requirement and tries
    #: another (older) one; ``asked``: pip's head line names the requirer's release and
    #: ``have`` (``==1.26.0``) asked for together and in conflict, the requirements between
    #: them not in the log (``spec`` empty: the block that names them is cut off).
    kind: str
    have: str = ""
    #: ``between``: the other package whose range on ``target`` (``have``) none of the
    #: requirer's meets, with its version (``rasa 2.8.7``).
    other: str = ""
    #: Who reported it: ``pip``; ``pkg_resources`` (which prints no requirer version:
    #: ``requirer_version`` is then empty); ``import``: the requirer's own check of the
    #: dependency as it imports, raised (the program ended there), or ``import warning``:
    #: the same check warned and the import went on (:data:`RANGE_CHECKS`; no requirer
    #: version either, and no requirer where the words do not name it).
    source: str = "pip"
    # The fields below are given by keyword (the ones above by position as pip prints them);
    # dataclasses.KW_ONLY would say so, but Python 3.9 lacks it.
    #: ``between``: TensorFlow came with the other package (pip's "Cannot install" line names
    #: what was asked for, and no TensorFlow): the clash is within that package's own pins.
    brought: bool = False
    #: ``between``: the resolver that printed it (``pip``, ``uv``, ``uv pip``: uv's pip
    #: interface, ``poetry``, ``pdm``), whose own commands the fix names.
    installer: str = "pip"
    #: ``installed``: pip's legacy resolver said what the install it was about to make would
    #: leave (``but you'll have``, pip 20.2 and before, checked before installing: the
    #: package is among those installed); not the notice pip 20.3 and later prints after the
    #: install of the packages already there (``but you have``).
    planned: bool = False
    #: ``installed``: the release of ``target`` the same pip run removed to put ``have`` in
    #: its place ("Found existing installation: typing_extensions 4.9.0"); empty where the
    #: log shows none.
    replaced: str = ""
    #: ``installed``: the TensorFlow distribution and release the same pip run installed
    #: beside ``have`` ("Successfully installed tensorflow-2.13.0 typing-extensions-4.5.0":
    #: ``tensorflow 2.13.0``); empty where its list names none, or not ``target`` at ``have``.
    installed_with_tf: str = ""
    #: ``missing`` by ``pkg_resources``: its words are the exception's own line
    #: (``pkg_resources.DistributionNotFound: The 'x' distribution ...``), the program ended
    #: there; not where a program caught and logged them (a plugin loader's warning).
    raised: bool = False

    @property
    def requirer_named(self) -> str:
        """``tensorflow 2.3.0``, or the name alone where the version was not printed (words
        for the checking package where not even the name was)."""
        return f"{self.requirer} {self.requirer_version}".strip() or "the importing package"


# pip's words as it removes an installed release to put another in its place
# (src/pip/_internal/req/req_install.py, ``uninstall``: "Found existing installation: %s",
# the distribution's name and version; https://github.com/pypa/pip/blob/23.0/src/pip/_internal/
# req/req_install.py).
_FOUND_INSTALLED = re.compile(
    r"Found existing installation: (?P<dist>" + _NAME + r") (?P<version>\d+(?:\.\d+)*[\w.+]{0,20})"
)


def replaced_release(text: str, dist: str) -> str:
    """The installed release of ``dist`` (a PEP 503 name) pip removed to replace it, or
    empty."""
    if "Found existing installation" not in text:
        return ""
    return next(
        (
            m.group("version")
            for m in _FOUND_INSTALLED.finditer(text)
            if normalize_name(m.group("dist")) == dist
        ),
        "",
    )


#: pip's list of what one run installed (commands/install.py: "Successfully installed %s",
#: each item ``name-version``).
_INSTALLED_LIST = re.compile(r"^[ \t]*Successfully installed (?P<list>[^\n]{1,4000})", re.M)


def _listed_items(listed: str) -> Iterator[tuple[str, str, int]]:
    """Each item of one pip "Successfully installed" list (``listed``, what follows the
    words) as pip printed it, ``name-version`` split at its last hyphen (a name may hold
    hyphens, a release none), with where in ``listed`` the item ends, in order."""
    for item in re.finditer(r"\S+", listed):
        name, hyphen, version = item.group().rpartition("-")
        if hyphen:
            yield name, version, item.end()


def installed_items(listed: str) -> dict[str, str]:
    """The items of one pip "Successfully installed" list (``listed``, what follows the
    words), each ``name-version``, as release by PEP 503 name."""
    return {normalize_name(name): version for name, version, _ in _listed_items(listed)}


def _installed_with_tf(text: str, target: str, have: str) -> str:
    """The TensorFlow distribution and release (``tensorflow 2.13.0``) a "Successfully
    installed" list of ``text`` names beside ``target`` at ``have``: the run that installed
    TensorFlow put that release of ``target`` in; empty where no list does."""
    if "Successfully installed" not in text:
        return ""
    for match in _INSTALLED_LIST.finditer(text):
        items = installed_items(match.group("list"))
        tf = next((f"{n} {v}" for n, v in items.items() if n in TF_DISTRIBUTIONS), "")
        if tf and items.get(target) == have:
            return tf
    return ""


def installed_releases(text: str, dist: str) -> list[str]:
    """The releases of ``dist`` pip's "Successfully installed" lists in ``text`` name, in order
    (``pip install --upgrade pip``'s run names ``pip-24.0``)."""
    if "Successfully installed" not in text:
        return []
    wanted = normalize_name(dist)
    found = (installed_items(m.group("list")).get(wanted) for m in _INSTALLED_LIST.finditer(text))
    return [version for version in found if version]


def _spec(text: str) -> str:
    """pip's ``<1.19.0 and >=1.16.0`` as a specifier (``<1.19.0,>=1.16.0``)."""
    return re.sub(r"\s*(?:,|\band\b)\s*", ",", text.strip()).replace(" ", "")


def read_conflicts(texts: Iterable[str]) -> list[Conflict]:
    """Every broken requirement pip reports in ``texts``, in order of appearance."""
    out: list[Conflict] = []
    for text in texts:
        # One substring search gates both shapes ("... which is incompatible", "... which is
        # not installed"), and one pip check's report (no verdict): a log of a million lines is
        # searched once or twice, not once per shape.
        if "which is " in text or "but you have " in text:
            found = [(m, "installed") for m in _INSTALLED.finditer(text)]
            found += [(m, "missing") for m in _MISSING.finditer(text)]
            for m, kind in sorted(found, key=lambda pair: pair[0].start()):
                target, spec = normalize_name(m["target"]), _spec(m["spec"])
                have = m["have"] if kind == "installed" else ""
                out.append(
                    Conflict(
                        normalize_name(m["req"]),
                        m["rv"],
                        target,
                        spec,
                        kind,
                        have,
                        planned=kind == "installed" and bool(m["will"]),
                        replaced=replaced_release(text, target) if have else "",
                        installed_with_tf=_installed_with_tf(text, target, have) if have else "",
                    )
                )
        if "Requirement.parse(" in text or "distribution was not found" in text:
            out += _pkg_resources(text)
        if any(word in text for word in _RANGE_CHECK_WORDS):
            out += _range_checks(text)
        if "The user requested" in text and "depends on" in text:
            asked = {
                normalize_name(m["target"]): _spec(m["spec"]) for m in _REQUESTED.finditer(text)
            }
            for m in _DEPENDS.finditer(text):
                target = normalize_name(m["target"])
                wanted = asked.get(target)
                if wanted:  # the user's own pin against a package's range: the conflict
                    out.append(
                        Conflict(
                            normalize_name(m["req"]),
                            m["rv"],
                            target,
                            _spec(m["spec"]),
                            "requested",
                            wanted,
                        )
                    )
        if "Will try a different candidate" in text:
            # pip's backtracking (resolvelib, pip 23.1 on): the candidate's requirement it
            # could not meet, each after the notice that it moves on.
            for m in _BACKTRACK.finditer(text):
                out.append(
                    Conflict(
                        normalize_name(m["req"]),
                        m["rv"],
                        normalize_name(m["target"]),
                        _spec(m["spec"]),
                        "backtrack",
                    )
                )
        if "Cannot install" in text and "conflict is caused by" not in text:
            out += _asked_together(text)
        if (
            "depends on" in text
            and "conflict is caused by" not in text
            and "Will try a different candidate" not in text
        ):
            out += _between(_headless_rows(text))
        if "conflict is caused by" in text:
            # The names the user asked for are the "requested" conflicts above; two packages'
            # ranges on another name in the same block are a clash of their own.
            mine = {normalize_name(m["target"]) for m in _REQUESTED.finditer(text)}
            between = _between(
                (m["req"], m["rv"], m["target"], m["spec"])
                for m in _DEPENDS.finditer(text)
                if normalize_name(m["target"]) not in mine
            )
            if _tf_not_asked(text):
                between = [dataclasses.replace(c, brought=True) for c in between]
            out += between
        if "we can conclude that" in text and "depends on" in text:
            uv = [(m["req"], m["rv"], m["target"], m["spec"]) for m in _UV_DEPENDS.finditer(text)]
            installer = uv_interface(text) or "uv"
            out += _between(uv, installer)
            roots = ((m["target"], m["spec"].rstrip(".")) for m in _UV_ROOT.finditer(text))
            out += _root_requested(uv, roots, installer)
        if "version solving failed" in text and "depends on" in text:
            poetry = [
                (m["req"], m["rv"], m["target"], m["spec"]) for m in _POETRY_DEPENDS.finditer(text)
            ]
            out += _between(poetry, "poetry")
            out += _poetry_one_side(text, poetry)
            out += _root_requested(
                poetry,
                (
                    (target, _poetry_spec(spec))
                    for m in _POETRY_ROOT.finditer(text)
                    for target, spec in ((m["target"], m["spec"]), (m["target2"], m["spec2"]))
                    if target
                ),
                "poetry",
            )
        if "Unable to find a resolution for" in text:
            pdm = [(m["req"], m["rv"], m["target"], m["spec"]) for m in _PDM_RANGE.finditer(text)]
            out += _between(pdm, "pdm")
            roots = ((m["target"], m["spec"]) for m in _PDM_ROOT.finditer(text))
            out += _root_requested(pdm, roots, "pdm")
        out += _conda_conflicts(text)
        if "incompatible versions in the resolved dependencies" in text:
            out += _between(
                (m["req"], m["rv"], m["target"], m["spec"]) for m in _PIPENV_RANGE.finditer(text)
            )
    return list(dict.fromkeys(out))[:MAX_CONFLICTS]


#: The longest line the pkg_resources readers look at, and the most requirers read from one.
_PKG_RESOURCES_LINE = 4000
_PKG_RESOURCES_REQUIRERS = 8


def _lines_with(text: str, word: str) -> Iterator[str]:
    """The lines of ``text`` that hold ``word``, each at most ``_PKG_RESOURCES_LINE`` long."""
    at = text.find(word)
    while at >= 0:
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        end = len(text) if end < 0 else end
        if end - start <= _PKG_RESOURCES_LINE:
            yield text[start:end]
        at = text.find(word, end)


def _pkg_resources(text: str) -> list[Conflict]:
    """The requirements pkg_resources found broken, one conflict per requirer it names (its
    version is not printed). One on TensorFlow itself missing is no companion's: left out."""
    # Each match with its requirers, its kind, the release installed and whether it was raised.
    found: list[tuple[re.Match[str], list[str], str, str, bool]] = []
    for line in _lines_with(text, "Requirement.parse("):
        for m in _PKG_RESOURCES_CONFLICT.finditer(line):
            requirers = re.findall(r"'([^']+)'", m["requirers"])
            found.append((m, requirers, "installed", m["have"], False))
    for line in _lines_with(text, "distribution was not found"):
        raised = _NOT_FOUND_RAISED.match(line) is not None
        for m in _PKG_RESOURCES_MISSING.finditer(line):
            if normalize_name(m["target"]) not in TF_DISTRIBUTIONS:
                found.append((m, m["requirers"].split(", "), "missing", "", raised))
    return [
        Conflict(
            normalize_name(requirer),
            "",
            normalize_name(m["target"]),
            _spec(m["spec"]),
            kind,
            have,
            source="pkg_resources",
            raised=raised,
        )
        for m, requirers, kind, have, raised in found[:MAX_CONFLICTS]
        for requirer in requirers[:_PKG_RESOURCES_REQUIRERS]
    ]


#: The exception line of pkg_resources' DistributionNotFound, as a traceback (or pytest's
#: "E   " report of one) ends with it.
_NOT_FOUND_RAISED = re.compile(r"^[ \t]*(?:E[ \t]+)?(?:[\w.]+\.)?DistributionNotFound: The '")


#: The sentences packages print as they import and check a dependency's version against the
#: range they need (each names the dependency, the range and the version found): (pattern,
#: the requirer and the dependency where the sentence does not name them, whether it always
#: raises, where it is printed). The version found is ``have``; ``low``/``high``/``top``
#: bound the range where the sentence words it (``>=low``, ``<high``, ``<=top``), else
#: ``spec`` holds it as the requirement. The dependency is ``target`` where the sentence names
#: its distribution, ``module`` where it names its import package.
RANGE_CHECKS: tuple[tuple[re.Pattern[str], str, str, bool, str], ...] = (
    (
        # SciPy warns (and goes on) where NumPy is outside the range its release was built
        # for; the f-string leaves the parenthesis open.
        re.compile(
            rf"A NumPy version >=(?P<low>{_VERSION}) and <(?P<high>{_VERSION}) is required "
            rf"for this version of SciPy \(detected version (?P<have>{_VERSION})(?=\)|\s|$)"
        ),
        "scipy",
        "numpy",
        False,
        "https://github.com/scipy/scipy/blob/v1.9.0/scipy/__init__.py",
    ),
    (
        # Matplotlib's _check_versions raises for each dependency below its minimum, named
        # by its import package (dateutil, of python-dateutil).
        re.compile(
            rf"Matplotlib requires (?P<module>{_NAME})>=(?P<low>{_VERSION}); "
            rf"you have (?P<have>{_VERSION})(?=[\s.]*$|\s)",
            re.MULTILINE,
        ),
        "matplotlib",
        "",
        True,
        "https://github.com/matplotlib/matplotlib/blob/v3.5.0/lib/matplotlib/__init__.py",
    ),
    (
        # pandas' (and Dask's copy of its) import_optional_dependency: raised or warned, as
        # the caller asks; the prefix says which. The dependency is its import package (bs4,
        # of beautifulsoup4).
        re.compile(
            r"(?P<raised>ImportError: )?(?P<req>Pandas|Dask) requires version "
            rf"'(?P<low>{_VERSION})' or newer of '(?P<module>{_NAME})' "
            rf"\(version '(?P<have>{_VERSION})' currently installed\)"
        ),
        "",
        "",
        False,
        "https://github.com/pandas-dev/pandas/blob/v1.5.0/pandas/compat/_optional.py",
    ),
    (
        # pandas' own NumPy minimum, raised as pandas.compat.numpy imports.
        re.compile(
            rf"this version of pandas is incompatible with numpy < (?P<low>{_VERSION})\s+"
            rf"your numpy version is (?P<have>{_VERSION})\.?(?=\s|$)"
        ),
        "pandas",
        "numpy",
        True,
        "https://github.com/pandas-dev/pandas/blob/v1.5.0/pandas/compat/numpy/__init__.py",
    ),
    (
        # JAX's _check_jaxlib_version, as jax imports: a jaxlib older than the jax release's
        # minimum, or newer than the jax release itself.
        re.compile(
            rf"jaxlib is version (?P<have>{_VERSION}), but this version of jax requires "
            rf"version >= (?P<low>{_VERSION})\.?(?=\s|$)"
            rf"|jaxlib version (?P<have2>{_VERSION}) is newer than and incompatible with jax "
            rf"version (?P<top>{_VERSION})\.?(?=\s|$)"
        ),
        "jax",
        "jaxlib",
        True,
        "https://github.com/jax-ml/jax/blob/jax-v0.4.14/jax/version.py",
    ),
    (
        # Hugging Face's require_version (transformers, and the libraries that copy it) names
        # the requirement and what it found, and in its hint the package to upgrade.
        re.compile(
            # Tried only where a name starts (as _INSTALLED is).
            rf"(?<![A-Za-z0-9._-])(?P<target>{_NAME})(?P<spec>{_OP}[\w.*+!-]+"
            rf"(?:,{_OP}[\w.*+!-]+)*) is required "
            r"for a normal functioning of this module,\s+but found "
            rf"(?P=target)==(?P<have>{_VERSION})\.(?=\s|$|Try:)"
            r"(?:\s*Try: `pip install (?P<req>[A-Za-z0-9][\w.-]*) -U`)?"
        ),
        "",
        "",
        True,
        "https://github.com/huggingface/transformers/blob/v4.30.0/src/transformers/utils/versions.py",
    ),
)
#: Words every range check's sentence holds: a text without one is not searched.
_RANGE_CHECK_WORDS = (
    "is required for this version of SciPy",
    "Matplotlib requires",
    "or newer of '",
    "this version of pandas is incompatible",
    "is required for a normal functioning",
    "jaxlib ",
)


def _range_checks(text: str) -> list[Conflict]:
    """The dependency range checks packages ran as they imported (:data:`RANGE_CHECKS`), each
    as the conflict it found: the requirer, the range, the version installed."""
    out: list[Conflict] = []
    for pattern, requirer, dependency, raises, _ in RANGE_CHECKS:
        for m in pattern.finditer(text):
            found = m.groupdict()
            module = found.get("module")
            # A check naming the import package: the distribution that installs it (the
            # module table's, else its own name, as most distributions name their package).
            target = normalize_name(
                found.get("target")
                or (module and (distribution_of(module) or module))
                or dependency
            )
            if target in TF_DISTRIBUTIONS:
                continue  # a check of TensorFlow itself is a companion's (IMPORT_CHECKS)
            spec = found.get("spec") or ",".join(
                f"{op}{found[key]}"
                for op, key in ((">=", "low"), ("<", "high"), ("<=", "top"))
                if found.get(key)
            )
            raised = raises or bool(found.get("raised"))
            out.append(
                Conflict(
                    normalize_name(found.get("req") or requirer),
                    "",
                    target,
                    spec,
                    "installed",
                    found.get("have") or found["have2"],
                    source="import" if raised else "import warning",
                )
            )
    return out


#: pip's head of a ResolutionImpossible (get_installation_error in
#: resolution/resolvelib/factory.py): what was asked for, each as its requirement or as
#: "-r FILE (line N)".
#: https://github.com/pypa/pip/blob/23.0/src/pip/_internal/resolution/resolvelib/factory.py
_CANNOT_INSTALL = re.compile(
    r"Cannot install (?P<asked>[^\n]{1,600}?) because these package versions have conflicting"
)


#: One exact pin as pip's "Cannot install" line names what was asked for.
_ASKED_PIN = re.compile(rf"(?:^|, | and )(?P<name>{_NAME})==(?P<version>{_VERSION})(?=,| and |$)")


def _asked_together(text: str) -> list[Conflict]:
    """pip's "Cannot install" line alone, naming one TensorFlow release and other exact pins
    asked for together: each other pin beside the TensorFlow release (``asked``)."""
    found = _CANNOT_INSTALL.search(text)
    if found is None:
        return []
    pins = [
        (normalize_name(m["name"]), m["version"]) for m in _ASKED_PIN.finditer(found.group("asked"))
    ]
    tfs = [p for p in pins if p[0] in TF_DISTRIBUTIONS]
    if len(tfs) != 1:
        return []
    (tf, version), others = tfs[0], [p for p in pins if p[0] not in TF_DISTRIBUTIONS]
    return [Conflict(tf, version, name, "", "asked", f"=={pin}") for name, pin in others]


def _tf_not_asked(text: str) -> bool:
    """Whether pip's "Cannot install" line names what was asked for and no TensorFlow
    distribution (nor a requirements file, which may hold one) is among it."""
    found = _CANNOT_INSTALL.search(text)
    if found is None or "-r " in found.group("asked"):
        return False
    names = re.findall(rf"(?:^|, | and )({_NAME})", found.group("asked"))
    return bool(names) and not any(normalize_name(n) in TF_DISTRIBUTIONS for n in names)


#: A range without spaces as uv, Poetry and PDM print it (``>=3.6.6,<4.6.0``).
_RANGE = rf"{_OP}[\w.*+!-]+(?:,{_OP}[\w.*+!-]+)*"
#: uv's PubGrub report of two releases' ranges on one package (``Because tensorflow==2.13.0
#: depends on typing-extensions>=3.6.6,<4.6.0 and fastapi==0.104.0 depends on
#: typing-extensions>=4.8.0, we can conclude that ... are incompatible``).
#: https://github.com/astral-sh/uv/blob/0.6.0/crates/uv-resolver/src/pubgrub/report.rs
_UV_DEPENDS = re.compile(
    rf"(?<![\w.-])(?P<req>{_NAME})==(?P<rv>{_VERSION}) depends on "
    rf"(?P<target>{_NAME})(?:\[[^\]\n]{{0,200}}\])?(?P<spec>{_RANGE})(?=\s|,\s|$)"
)
#: Poetry's (mixology's) words for the same: ``tensorflow (2.13.0) depends on
#: typing-extensions (>=3.6.6,<4.6.0)``, ahead of ``version solving failed``.
#: https://github.com/python-poetry/poetry/blob/1.8.3/src/poetry/mixology/failure.py
_POETRY_DEPENDS = re.compile(
    rf"(?<![\w.-])(?P<req>{_NAME}) \((?P<rv>{_VERSION})\) depends on "
    rf"(?P<target>{_NAME}) \((?P<spec>{_RANGE})\)"
)
#: Poetry's conclusion that a TensorFlow range is incompatible with another package, drawn
#: from TensorFlow's range on a shared name (``tensorflow (>=2.14.0,<3.0.0) requires wrapt
#: (>=1.11.0,<1.15).`` then ``Thus, tensorflow (>=2.14.0,<3.0.0) is incompatible with reflex
#: (>=0.2.8,<0.3.0).``): a derived incompatibility of one positive and one negative term reads
#: "A requires B", one of two positive terms "A is incompatible with B" (mixology's
#: Incompatibility.__str__ and _try_requires_through,
#: https://github.com/python-poetry/poetry/blob/1.8.3/src/poetry/mixology/incompatibility.py).
#: "Thus, " opens the line of a conclusion drawn from two derived ones, which a line number
#: may lead ("(2) Thus, ...": failure.py's _visit and write).
_POETRY_THUS = re.compile(
    rf"(?<![\w.-])(?P<req>{_NAME}) \((?P<rr>[^()\n]{{1,80}})\) (?:requires|depends on) "
    rf"(?P<target>{_NAME}) \((?P<spec>{_RANGE})\)\.?\s+(?:\(\d+\)\s+)?Thus, "
    rf"(?P=req) \((?P=rr)\) is incompatible with (?P<other>{_NAME})"
    r"(?: \((?P<orange>[^()\n]{1,80})\))?"
)
#: PDM's list (format_resolution_impossible) under ``Unable to find a resolution for X`` /
#: ``because of the following conflicts:``, one requirement a line with the release that
#: declares it (``typing-extensions<4.6.0,>=3.6.6 (from tensorflow@2.13.0)``).
#: https://github.com/pdm-project/pdm/blob/0acc07a718a35a69e926240f8f47d53404d95a2b/src/pdm/cli/utils.py
_PDM_RANGE = re.compile(
    rf"^[ \t]*(?P<target>{_NAME})(?:\[[^\]\n]{{0,200}}\])?(?P<spec>{_RANGE}) "
    rf"\(from (?P<req>{_NAME})(?:\[[^\]\n]{{0,200}}\])?@(?P<rv>{_VERSION})\)",
    re.MULTILINE,
)

#: The project's own requirement at the root of a resolver's report, against which a
#: TensorFlow release's range is weighed: uv's "you require numpy>=2" (``uv pip``) and "your
#: project depends on keras==3.3.3" (a project; report.rs above), PDM's "numpy>=2.0 (from
#: project)" (format_resolution_impossible above).
_UV_ROOT = re.compile(
    # uv wraps its report at the terminal's width: a break may fall between any two words.
    rf"\b(?:you\s+require|your\s+project\s+depends\s+on)\s+(?P<target>{_NAME})"
    rf"(?:\[[^\]\n]{{0,200}}\])?(?P<spec>{_RANGE})(?=[\s,;]|\.?$)",
    re.MULTILINE,
)
_PDM_ROOT = re.compile(
    rf"^[ \t]*(?P<target>{_NAME})(?:\[[^\]\n]{{0,200}}\])?(?P<spec>{_RANGE}) \(from project\)",
    re.MULTILINE,
)
#: Poetry's root is the project by its name, without a version ("my-project depends on numpy
#: (^2.0.0)", "my-project depends on both tensorflow (~2.15.0) and keras (^3.0)"), where a
#: release is named with its version ("tensorflow (2.15.0) depends on"; mixology's
#: failure.py above).
_POETRY_ROOT = re.compile(
    rf"(?<![\w.()-])(?P<root>{_NAME}) depends on (?:both )?(?P<target>{_NAME}) "
    rf"\((?P<spec>[^()\n]{{1,80}})\)(?: and (?P<target2>{_NAME}) \((?P<spec2>[^()\n]{{1,80}})\))?"
)
#: Poetry's constraint words (poetry-core's semver parser: ``^2.0`` up to the next major, or
#: minor below 1.0; ``~2.15`` up to the next minor; a bare version exact).
#: https://github.com/python-poetry/poetry-core/blob/1.9.0/src/poetry/core/constraints/version/parser.py
_POETRY_BOUND = re.compile(r"^(?P<op>\^|~(?!=))?[ \t]*(?P<v>\d+(?:\.\d+)*)$")


def _poetry_spec(text: str) -> str:
    """Poetry's constraint (``^2.0.0``, ``~2.15``, ``2.0.0``, ``>=1.2,<2.0``) as a PEP 440
    specifier; empty where it is none of those (``*``, a union)."""
    text = text.strip()
    bound = _POETRY_BOUND.match(text)
    if bound is None:
        return _spec(text) if re.fullmatch(rf"{_OP}[^()|]*", text) else ""
    parts = [int(x) for x in bound["v"].split(".")]
    if bound["op"] is None:
        return f"=={bound['v']}"
    if bound["op"] == "^":
        # The first non-zero component is the one that may not change.
        at = next((i for i, x in enumerate(parts) if x), len(parts) - 1)
    else:
        at = min(1, len(parts) - 1)
    upper = [*parts[:at], parts[at] + 1]
    return f">={bound['v']},<{'.'.join(map(str, upper))}"


def _poetry_one_side(text: str, rows: Sequence[tuple[str, str, str, str]]) -> list[Conflict]:
    """Poetry's conclusion that a TensorFlow release range is incompatible with another
    package because of TensorFlow's range on a shared name (:data:`_POETRY_THUS`), where the
    report kept does not show the other package's own range on it (the lines that state it
    are cut): a ``between`` conflict whose other range (``have``) is empty. The TensorFlow
    release is the one a row states that range of (``rows``: "tensorflow (2.14.0) depends on
    wrapt (>=1.11.0,<1.15)"); where the other's range is shown, :func:`_between` reads both."""
    out = []
    for m in _POETRY_THUS.finditer(text):
        req, target, other = (normalize_name(m[x]) for x in ("req", "target", "other"))
        spec = _spec(m["spec"])
        if req not in TF_DISTRIBUTIONS or target in TF_DISTRIBUTIONS or other == req:
            continue
        version = next(
            (
                rv
                for r, rv, t, s in rows
                if normalize_name(r) == req and normalize_name(t) == target and _spec(s) == spec
            ),
            None,
        )
        shown = any(
            normalize_name(r) == other and normalize_name(t) == target for r, _, t, _ in rows
        )
        if version is None or shown:
            continue
        named = f"{other} ({m['orange']})" if m["orange"] else other
        # The other package's range on the name is not shown: ``have`` stays empty.
        out.append(Conflict(req, version, target, spec, "between", "", named, installer="poetry"))
    return out


def _root_requested(
    sides: Iterable[tuple[str, str, str, str]],
    roots: Iterable[tuple[str, str]],
    installer: str,
) -> list[Conflict]:
    """A release's range on a package (``sides``: requirer, version, target, range) beside
    the project's own requirement of it (``roots``: target, range), as a resolver other than
    pip reports them: the user's requirement against TensorFlow's, or against any other
    library's range on a package the project requires itself (``requested``), whether the two
    meet left for the reasoning to judge."""
    asked: dict[str, str] = {}
    for target, spec in roots:
        if spec:
            asked.setdefault(normalize_name(target), spec)
    out = []
    for req, version, target, spec in sides:
        name = normalize_name(target)
        # TensorFlow's range on another package, a companion's range on TensorFlow itself
        # (tensorflow-text's tensorflow<2.17 against the project's tensorflow==2.17.0), or
        # any library's on a package the project requires itself (gpjax's numpy<2.0.0
        # against the project's numpy>=2.1.1).
        if name in asked:
            out.append(
                Conflict(
                    normalize_name(req),
                    version,
                    name,
                    _spec(spec),
                    "requested",
                    asked[name],
                    installer=installer,
                )
            )
    return out


#: The pairs of other packages' ranges read per name where TensorFlow is no side of it.
_PAIRS_PER_NAME = 6


def _pairs_of_two(
    sides: list[tuple[str, str, str]],
) -> Iterator[tuple[tuple[str, str, str], tuple[str, str, str]]]:
    """Each pair of ``sides`` (package, version, range) of two different packages, the earlier
    first, made one at a time: a block of thousands of ranges on one name (pip's backtracking
    through one package's releases) is not made into millions of pairs to keep a few. Each
    side is tried against what follows only where another package follows it, so taking the
    first pairs costs a pass or two over the sides."""
    # later[i]: the first side after i of another package than side i's, or None.
    later: list[Optional[int]] = [None] * len(sides)
    for i in range(len(sides) - 2, -1, -1):
        later[i] = i + 1 if sides[i + 1][0] != sides[i][0] else later[i + 1]
    for i, a in enumerate(sides):
        start = later[i]
        if start is not None:
            for j in range(start, len(sides)):
                if sides[j][0] != a[0]:
                    yield a, sides[j]


#: One of pip's "The conflict is caused by:" rows on a line of its own, as a paste that cut
#: the block's head keeps it ("    tensorflow 2.12.1 depends on numpy<=1.24.3 and >=1.22").
_ROW = re.compile(
    rf"^[ \t]*(?P<req>{_NAME})(?:\[[^\]\n]{{0,200}}\])? (?P<rv>{_VERSION}) depends on "
    rf"(?P<target>{_NAME})(?:\[[^\]\n]*\])?"
    rf"(?P<spec>(?:{_OP}[ \t]*[\w.*+!-]+(?:[ \t]*(?:,|and)[ \t]*{_OP}[ \t]*[\w.*+!-]+)*)?)"
    r"[ \t]*$",
    re.M,
)


def _headless_rows(text: str) -> list[tuple[str, str, str, str]]:
    """pip's conflict rows where the log lost the block's head: two or more rows, each a
    line of its own (a sentence that says "depends on" is not one); the ranges that meet are
    for the reasoning to set aside, as in the whole block."""
    rows = [(m["req"], m["rv"], m["target"], m["spec"]) for m in _ROW.finditer(text)]
    return rows if len(rows) >= 2 else []


#: conda's UnsatisfiableError, its "direct" conflicts (conda/exceptions.py, from 4.7): under
#: "Package numpy conflicts for:", one chain a line from what was requested to the name, each
#: link a MatchSpec ("tensorflow==2.4.1 -> numpy[version='>=1.19.2,<1.20']"), up to a blank
#: line. https://github.com/conda/conda/blob/4.14.0/conda/exceptions.py
_CONDA_GROUP = re.compile(r"^Package (?P<target>[\w.-]{1,100}) conflicts for:[ \t]*$", re.M)
_CONDA_CHAIN = re.compile(
    r"^[ \t]*(?P<req>[A-Za-z0-9][\w.-]{0,100}?)={1,2}(?P<rv>\d[\w.]{0,40}?)\.?\*?[ \t]*->[ \t]*"
    r"(?P<target>[A-Za-z0-9][\w.-]{0,100})"
    r"\[version='(?P<spec>[^'|\n]{1,200})'[^\]\n]{0,200}\][ \t]*$"
)


#: One term of conda's version expression (conda/models/version.py, VersionSpec): an
#: operator (none: the release; ``=``: its fuzzy form, ``=1.19`` for ``1.19.*``), a
#: release, and a trailing ``*`` or ``.*`` for every release that starts so.
_CONDA_TERM = re.compile(
    r"(?P<op>[<>!=]=|~=|[<>=])?(?P<v>\d+(?:\.\d+)*(?:(?:a|b|rc)\d+)?)(?P<star>\.?\*)?"
)


def _conda_spec(spec: str) -> Optional[str]:
    """conda's version expression as a specifier: ``>=1.19.2,<1.20.0a0`` stays, a bare
    ``1.19.*`` or ``1.19.5`` is the release (``==1.19.*``), ``*`` any release (no term);
    None for a term that reads as no specifier (whether it meets another is not known)."""
    out = []
    for part in (p.strip() for p in spec.split(",")):
        if part in ("", "*"):
            continue
        term = _CONDA_TERM.fullmatch(part)
        if term is None:
            return None
        op, version = term["op"] or "==", term["v"]
        if term["star"] or op == "=":
            if op not in ("==", "!=", "="):
                return None  # ">=1.19.*" is no specifier
            out.append(f"{'!=' if op == '!=' else '=='}{version}.*")
        else:
            out.append(f"{op}{version}")
    return ",".join(out)


def _conda_chains(text: str) -> list[tuple[str, str, str, str]]:
    """The two-link chains of conda's "Package X conflicts for:" groups: what was requested,
    with its release, and its range on X (a longer chain passes through a package the
    request did not name: left out; so is a range with alternatives, ``|``). Python's group
    and a virtual package's (``__cuda``) are the environment's, read apart."""
    out: list[tuple[str, str, str, str]] = []
    for group in _CONDA_GROUP.finditer(text):
        if group["target"] in ("python", "python_abi") or group["target"].startswith("__"):
            continue  # the Python's group and virtual packages have readings of their own
        for line in _group_lines(text, group.end()):
            m = _CONDA_CHAIN.match(line)
            if m is None or normalize_name(m["target"]) != normalize_name(group["target"]):
                continue
            spec = _conda_spec(m["spec"])
            if spec is not None:
                out.append((m["req"], m["rv"], m["target"], spec))
    return out


#: The line of a conda group that is the request itself, not a chain: the name and the spec
#: as the user gave it (``numpy=2.0``, ``numpy==2.0``, ``numpy >=2``), conda's
#: "Requested package -> Available versions" format printing what was asked for at the
#: chain's left end with no arrow (conda/exceptions.py, UnsatisfiableError, 4.7 on).
#: https://github.com/conda/conda/blob/4.14.0/conda/exceptions.py
_CONDA_REQUEST = re.compile(
    r"^[ \t]*(?P<target>[A-Za-z0-9][\w.-]{0,100}?)[ \t]*"
    r"(?P<spec>(?:[<>!=~]=?)[ \t]*\d[\w.*,<>=!]{0,60})[ \t]*$"
)


def _conda_requests(text: str) -> Iterator[tuple[str, str]]:
    """The user's own requests in conda's "Package X conflicts for:" groups (name, spec as
    a specifier), where a group lists the request of X itself beside the chains into X."""
    for group in _CONDA_GROUP.finditer(text):
        if group["target"] in ("python", "python_abi") or group["target"].startswith("__"):
            continue
        for line in _group_lines(text, group.end()):
            m = _CONDA_REQUEST.match(line)
            if m is None or normalize_name(m["target"]) != normalize_name(group["target"]):
                continue
            spec = _conda_spec(m["spec"].replace(" ", ""))
            if spec:
                yield m["target"], spec


def _conda_conflicts(text: str) -> list[Conflict]:
    """The ranges conda's solvers say meet no release: two packages' in the classic solver's
    groups, and the user's own request against a package's range (its groups and libmamba's
    problem tree)."""
    out: list[Conflict] = []
    if "conflicts for:" in text and "UnsatisfiableError" in text:
        chains = _conda_chains(text)
        out += _between(chains, "conda")
        out += _root_requested(chains, _conda_requests(text), "conda")
    if _MAMBA_TREE in text and "is requested and can be installed" in text:
        out += _mamba_requested(text)
    return out


#: Chains read per conda group.
_CONDA_CHAIN_LINES = 40


def _group_lines(text: str, at: int) -> Iterator[str]:
    """The lines of the group whose head ends at ``at``, up to the blank line that ends it
    (blank lines right after the head skipped), at most ``_CONDA_CHAIN_LINES``: each group
    reads its own lines, never the rest of the log (a log of many groups stays linear)."""
    start = text.find("\n", at) + 1
    read = 0
    while 0 < start < len(text) and read < _CONDA_CHAIN_LINES:
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        line = text[start:end]
        start = end + 1
        if not line:
            if read:
                return
            continue
        read += 1
        yield line


def _between(ranges: Iterable[tuple[str, str, str, str]], installer: str = "pip") -> list[Conflict]:
    """The ranges two packages declare on one name that a resolver (``installer``) could not
    meet together, TensorFlow's side as the requirer: one conflict per other package whose
    range is set. Of two other packages (neither TensorFlow) on a name other than
    TensorFlow's, each pair of different packages, the first listed as the requirer: which
    pair no version meets is for the reasoning to judge."""
    by_target: dict[str, list[tuple[str, str, str]]] = {}
    for req, version, target, spec in ranges:
        by_target.setdefault(normalize_name(target), []).append(
            (normalize_name(req), version, _spec(spec))
        )
    out: list[Conflict] = []
    for target, sides in by_target.items():
        ours = [x for x in sides if x[0] in TF_DISTRIBUTIONS]
        pairs = [(a, b) for a in ours[:1] for b in sides if b[0] not in TF_DISTRIBUTIONS and b[2]]
        if target not in TF_DISTRIBUTIONS:
            # Packages' ranges on TensorFlow itself are the companions' reading.
            others = [x for x in sides if x[0] not in TF_DISTRIBUTIONS and x[2]]
            pairs += itertools.islice(_pairs_of_two(others), _PAIRS_PER_NAME)
        for (req, version, spec), (other, other_version, other_spec) in pairs:
            out.append(
                Conflict(
                    req,
                    version,
                    target,
                    spec,
                    "between",
                    other_spec,
                    f"{other} {other_version}",
                    installer=installer,
                )
            )
    return out


# pip's report of a requirement it found no release of for any candidate of the one package
# that declares it (src/pip/_internal/resolution/resolvelib/factory.py,
# get_installation_error; https://github.com/pypa/pip/blob/23.0/src/pip/_internal/resolution/
# resolvelib/factory.py): "Cannot install A==1.1 and A==1.2 because these package versions have
# conflicting dependencies." then "The conflict is caused by:" and one "A 1.2 depends on Y>=2"
# per candidate. Every cause names the requirement pip could not meet; where all of them are
# one package's releases on one name, and the user asked for no release of that name (no "The
# user requested"), nothing stands against Y but its own releases: none pip could see fits.
# (With one candidate pip says "Could not find a version that satisfies the requirement".)
_CAUSED_BY = "The conflict is caused by:"


@record
class Unavailable(Record):
    """A requirement no candidate of the package declaring it could meet (observed)."""

    #: The distribution required (PEP 503 name) and the specifiers the candidates asked for,
    #: distinct, in order (an empty one: any release).
    dist: str
    specs: tuple[str, ...]
    #: The package whose releases require it, and those releases as pip names them.
    required_by: str
    versions: tuple[str, ...]


def read_unavailable(texts: Iterable[str]) -> list[Unavailable]:
    """Each pip report in ``texts`` whose conflict is one package's releases all requiring one
    name, the user asking for none of it."""
    out: list[Unavailable] = []
    for text in texts:
        at = text.find(_CAUSED_BY)
        while at >= 0 and len(out) < MAX_CONFLICTS:
            end = text.find("\n\n", at)
            block = text[at + len(_CAUSED_BY) : end if end >= 0 else at + 4000]
            at = text.find(_CAUSED_BY, at + len(_CAUSED_BY))
            if "The user requested" in block:
                continue
            causes = [
                (normalize_name(m["req"]), m["rv"], normalize_name(m["target"]), _spec(m["spec"]))
                for m in _DEPENDS.finditer(block)
            ]
            # Each of the block's own lines must be one of these causes: a line of other words
            # (a cut paste, another report) leaves the reading.
            lines = [line for line in block.strip().splitlines() if line.strip()]
            if len(causes) < 2 or len(lines) != len(causes):
                continue
            if len({c[0] for c in causes}) != 1 or len({c[2] for c in causes}) != 1:
                continue
            # One release naming the name twice with other specifiers ("A[x] 1.2 depends on
            # Y>=2", "A[y] 1.2 depends on Y<2": two extras asked for together, or one release's
            # own markers) is a conflict between requirements, not a release none fits.
            pairs = {(c[1], c[3]) for c in causes}
            if len(pairs) != len({rv for rv, _ in pairs}):
                continue
            specs = tuple(dict.fromkeys(c[3] for c in causes))
            found = Unavailable(
                causes[0][2], specs, causes[0][0], tuple(dict.fromkeys(c[1] for c in causes))
            )
            if found not in out:
                out.append(found)
    return out


# --- the checks companions run as they import ------------------------------------------------


@record
class ImportCheck(Record):
    """A companion's own verdict on the TensorFlow it found, as it printed it (observed)."""

    #: The companion's distribution (PEP 503 name).
    dist: str
    #: What it requires of TensorFlow (``>=2.5``); empty where the message gives no range.
    spec: str
    #: The TensorFlow version it found; empty where the message does not say.
    found: str
    #: The sentence, whitespace collapsed.
    message: str
    #: Where the sentence is the library's own words rather than a row of
    #: :data:`IMPORT_CHECKS`: the file that raised or warned it (the distribution is then
    #: read from its path: inferred); empty for a row's sentence.
    path: str = ""
    #: Printed as a Python warning (``file:line: UserWarning: ...``): the program went on.
    warned: bool = False


def _dist_of(name: str) -> str:
    """The distribution a companion's display name stands for (``TensorFlow Probability``
    -> ``tensorflow-probability``, ``TF-Agents`` -> ``tf-agents``)."""
    return normalize_name(re.sub(r"\s+", "-", name.strip()))


#: The sentences companions print when the TensorFlow they import with is not the one they
#: were built for: (pattern over whitespace-collapsed text, the distribution when the
#: sentence does not name it, whether the sentence is logged as a warning the program goes
#: on after, where the sentence is printed).
IMPORT_CHECKS: tuple[tuple[re.Pattern[str], str, bool, str], ...] = (
    (
        # TensorFlow Probability's _ensure_tf_install, copied by TF-Agents and others.
        re.compile(
            r"This version of (?P<name>[A-Za-z][\w-]*(?: [A-Za-z][\w-]*){0,3}) requires "
            r"TensorFlow version (?P<spec>[<>=!~]=?\s*\d[\w.]*(?:\s*,\s*[<>=!~]=?\s*\d[\w.]*)*)"
            r"\s*;\s*Detected an installation of version (?P<found>\d[\w.+-]*?)\.?(?=\s|$)"
        ),
        "",
        False,
        "https://github.com/tensorflow/probability/blob/v0.13.0/tensorflow_probability/python/__init__.py",
    ),
    (
        # TensorFlow Addons' ensure_tf_install (a warning: it goes on with its Python ops).
        re.compile(
            r"(?i:tensorflow) Addons supports using Python ops for all (?i:tensorflow) versions "
            r"above or equal to (?P<low>\d[\w.]*) and strictly below (?P<high>\d[\w.]*)"
            r".{0,80}?The versions? of (?i:tensorflow) you are currently using is "
            r"(?P<found>\d[\w.+-]*?) and is not supported"
        ),
        "tensorflow-addons",
        False,
        "https://github.com/tensorflow/addons/blob/v0.19.0/tensorflow_addons/utils/ensure_tf_install.py",
    ),
    (
        # TensorFlow Probability wraps TensorFlow functions and compares their signatures as
        # it imports: another signature means a TensorFlow of another release.
        re.compile(
            r"Arg specs do not match: original=FullArgSpec\(.{0,600}?fn=<function (?P<fn>\w+)"
        ),
        "tensorflow-probability",
        False,
        "https://github.com/tensorflow/probability/blob/v0.21.0/tensorflow_probability/python/internal/prefer_static.py",
    ),
    (
        # TensorFlow Decision Forests' check_version, logged (logging.warning) as it imports:
        # "TensorFlow Decision Forests 1.3.0 is compatible with the following TensorFlow
        # Versions: ['2.12.0']. However, TensorFlow 2.13.0 was detected." The list is the
        # releases its custom C++ ops were built against.
        re.compile(
            r"\bTensorFlow Decision Forests v?\d[\w.]{0,30} is "
            r"compatible with the following (?i:tensorflow versions): "
            r"\[(?P<listed>[^\]]{1,200})\]\. However, (?i:tensorflow) (?P<found>\d[\w.+-]{0,40}?) "
            r"was detected"
        ),
        "tensorflow-decision-forests",
        True,
        "https://github.com/tensorflow/decision-forests/blob/v1.5.0/tensorflow_decision_forests/tensorflow/check_version.py",
    ),
)
#: Words every import check's sentence holds: a block without one is not searched.
_CHECK_WORDS = (
    "Detected an installation of version",
    "Addons supports",
    "Arg specs do not match",
    "is compatible with the following",
)
#: Decision Forests' check_version warning where it starts the logged line: at the line's
#: start, or after a logger's prefix that ends in the warning level (``WARNING:root:``,
#: ``WARNING:absl:``, ``2023-05-01 12:00:00 WARNING``, absl's ``W0501 12:00:00.1 42
#: check_version.py:44]``, its thread id left out or not); the words quoted inside another
#: line are no verdict.
_DF_LOGGED = re.compile(
    r"^(?:[^\n\"'`]{0,80}?\bWARNING\b(?::[\w.]{1,40})?:?[ \t]*"
    r"|W\d{4} [\d:.]{1,20}(?:[ \t]+\d{1,10})? [\w.]{1,80}:\d{1,6}\][ \t]*)?"
    r"TensorFlow Decision Forests v?\d[\w.]{0,30} is compatible with the following",
    re.M,
)
#: A version in a list a check prints (``['2.16.1', '2.16.2']``).
_PRINTED_RELEASE = re.compile(r"\d+(?:\.\d+)+")


def _listed_spec(listed: str, found: str) -> Optional[str]:
    """The range a printed list of TensorFlow releases stands for (``==2.12.0``; several, from
    the lowest to the highest), or None where the release ``found`` is of a line the list
    names: the check compares whole versions, while the companion's own requirement admits
    every patch of its line (TF-DF's configure/setup.py, ``tensorflow~=2.X.0`` from 1.0.1:
    https://github.com/tensorflow/decision-forests/blob/v1.5.0/configure/setup.py), so a
    patch apart is no mismatch."""
    versions = sorted(
        set(_PRINTED_RELEASE.findall(listed)), key=lambda v: tuple(int(x) for x in v.split("."))
    )
    if not versions:
        return None
    line = ".".join(found.split(".")[:2])
    if any(".".join(v.split(".")[:2]) == line for v in versions):
        return None
    if len(versions) == 1:
        return f"=={versions[0]}"
    return f">={versions[0]},<={versions[-1]}"


def read_import_checks(texts: Iterable[str]) -> list[ImportCheck]:
    """Every companion's import-time verdict on TensorFlow in ``texts`` (a terminal may wrap
    the sentence: it is read with its whitespace collapsed)."""
    out: list[ImportCheck] = []
    for text in texts:
        if not any(word in text for word in _CHECK_WORDS):
            continue
        flat = re.sub(r"\s+", " ", text)
        for pattern, dist, warned, _ in IMPORT_CHECKS:
            for m in pattern.finditer(flat):
                groups = m.groupdict()
                spec = groups.get("spec") or ""
                if groups.get("low"):
                    spec = f">={groups['low']},<{groups['high']}"
                if groups.get("listed") is not None:
                    if not _DF_LOGGED.search(text):
                        continue
                    listed = _listed_spec(groups["listed"], groups.get("found") or "")
                    if listed is None:
                        continue
                    spec = listed
                name = dist or _dist_of(groups.get("name") or "")
                found = ImportCheck(
                    name,
                    spec.replace(" ", ""),
                    groups.get("found") or "",
                    m.group(0),
                    warned=warned,
                )
                if found not in out:
                    out.append(found)
    return out[:MAX_CONFLICTS]


#: A library's own words refusing the TensorFlow it found, where no sentence of
#: :data:`IMPORT_CHECKS` is its: TensorFlow named beside a requirement it fails ("requires
#: TensorFlow >= 2.8", "TensorFlow 2.17 is not supported", "No matching plugin found for
#: installed TensorFlow version"). A version's word alone ("TensorFlow version 2.4") is no
#: refusal.
_TF_NAMED = re.compile(r"\btensor ?flow\b", re.I)
_REFUSING = re.compile(
    r"\b(?:not (?:supported|compatible)|unsupported|incompatible|no matching|(?:does|do) not "
    r"match|mismatch(?:ed)?|requires?|required|at least|or (?:higher|newer|later|above|greater)"
    r"|strictly below|(?:supports?|compatible with) only|only (?:supports?|works)"
    # OpenNMT-tf's version.py: "supports TensorFlow versions 2.3.0 (included) to 2.5.0
    # (excluded), but you have TensorFlow 2.6.0 installed"
    # (https://github.com/OpenNMT/OpenNMT-tf/blob/v2.18.0/opennmt/version.py).
    r"|but you have tensor ?flow)\b",
    re.I,
)
_TF_VERSION_WORD = re.compile(r"\bversions?\b|\d+\.\d+")
#: A range's bounds as such sentences write them: ``>= 2.8``, ``<2.16``, ``2.12 or higher``,
#: ``at least 2.11.0`` (KerasCV's and KerasNLP's version_check.py: "The Tensorflow package
#: version needs to be at least 2.11.0 for KerasCV to run",
#: https://github.com/keras-team/keras-cv/blob/v0.5.0/keras_cv/version_check.py).
_STATED_BOUND = re.compile(
    r"(?P<op>[<>]=?|==|~=|!=)\s*(?P<v>\d+(?:\.\d+)+)"
    r"|(?P<low>\d+(?:\.\d+)+)\s+or\s+(?:higher|newer|later|above|greater)"
    r"|\bat least (?:(?:tensor ?flow|version) )?(?P<least>\d+(?:\.\d+)+)"
    # A range's ends marked "(included)" and "(excluded)" (OpenNMT-tf, above).
    r"|(?P<incl>\d+(?:\.\d+)+) \(included\)|(?P<excl>\d+(?:\.\d+)+) \(excluded\)"
)
#: The version the library found, after the words that introduce it (``Detected an
#: installation of version 2.4.1``, ``you are using TensorFlow 2.17.0``, ``installed:
#: 2.16.1``), or TensorFlow's name right before it (``TensorFlow 2.17.0 is not supported``).
_FOUND_VERSION = re.compile(
    r"(?:installed|detected|found|current(?:ly)?|using|you have|got)\b[^.;:\d]{0,40}?:?\s*"
    r"(?P<a>\d+\.\d+(?:\.\d+)?(?:rc\d+|\.dev\d+)?)"
    r"|\btensor ?flow(?: version)?\s+(?P<b>\d+\.\d+(?:\.\d+)?(?:rc\d+|\.dev\d+)?)\b"
    r"(?!\s+or\s)",
    re.I,
)


#: A count that "at least" asks for, not a version (``requires at least 2 GPUs``): the words
#: are no requirement on TensorFlow's version, so they are set aside before the refusal's
#: words are looked for.
_COUNTED = re.compile(
    r"\b(?:(?:requires?|required|needs?|needed)\s+)?at least \d+(?![\d.])\s+(?!or\b)[A-Za-z]",
    re.I,
)


def library_verdict(
    message: str, dist: str, path: str = "", warned: bool = False
) -> Optional[ImportCheck]:
    """A library's refusal of the TensorFlow it found, as its exception's (or, ``warned``,
    its Python warning's) ``message`` words it, in the library's own code (``dist``: its
    distribution, or its package where the module table does not know it; ``path``: the file
    that raised or warned it); None where the message is no such refusal."""
    flat = re.sub(r"\s+", " ", message).strip()
    if (
        not dist
        or len(flat) > 600
        or _TF_NAMED.search(flat) is None
        or _REFUSING.search(_COUNTED.sub(" ", flat)) is None
        or _TF_VERSION_WORD.search(flat) is None
    ):
        return None
    bounds = [
        f"{m.group('op')}{m.group('v')}"
        if m.group("op")
        else f"<{m.group('excl')}"
        if m.group("excl")
        else f">={m.group('low') or m.group('least') or m.group('incl')}"
        for m in _STATED_BOUND.finditer(flat)
    ]
    stated = {b.lstrip("<>=~!") for b in bounds}
    found = next(
        (
            v
            for m in _FOUND_VERSION.finditer(flat)
            for v in (m.group("a") or m.group("b"),)
            if v not in stated
        ),
        "",
    )
    return ImportCheck(dist, ",".join(bounds[:2]), found, flat, path, warned)


# --- versions a session echoed ------------------------------------------------------------------

#: Import names a session asks the version of, and their distribution.
_MODULES = {
    "tf": "tensorflow",
    "tensorflow": "tensorflow",
    "np": "numpy",
    "numpy": "numpy",
    "keras": "keras",
    # Keras 3's torch backend's framework; its __version__ may carry a local part
    # (2.1.0+cu121, the CUDA build), which the version read here ends before.
    "torch": "torch",
}
# `>>> tf.__version__` then `'2.18.0'` (the REPL's echo), `In [3]: np.__version__` then
# `Out[3]: '1.26.4'` (IPython), `print(tf.__version__)` then `2.16.1`: the value is on the
# next line (https://docs.python.org/3/tutorial/interpreter.html#interactive-mode). A bare
# `keras.__version__` is the keras package's, except TensorFlow 2.0-2.3's own copy imported
# as keras, which says so with "-tf" ('2.3.0-tf': tensorflow/python/keras/__init__.py), left out.
_ECHO = re.compile(
    r"^[ \t]*(?:>>>[ \t]*|In \[\d+\]:[ \t]*)?(?:print\()?"
    r"(?:(?P<module>tf|tensorflow|np|numpy|keras|torch)\.__version__"
    # TensorFlow's own constant: tf.version.VERSION (1.13 on), 1.x's tf.VERSION.
    r"|(?P<tf_module>tf|tensorflow)\.(?:version\.)?VERSION)"
    r"\)?[ \t]*\r?\n[ \t]*(?:Out\[\d+\]:[ \t]*)?['\"]?"
    r"(?P<version>\d+\.\d+(?:\.\d+)?(?:(?:rc|\.dev|\.post)\d+)?)(?![\w.]|-tf)",
    re.MULTILINE,
)

#: How pip writes each suffix TensorFlow's own ``__version__`` adds to a pre-release
#: (version.h's TF_VERSION_SUFFIX: ``2.16.0-rc0``, a nightly's ``2.16.0-dev20231103``, 2.0's
#: previews' ``2.0.0-alpha0`` and ``2.0.0-beta1``), by kind: PEP 440's normal form, its
#: "Pre-release spelling" and "Development release separators"
#: (https://peps.python.org/pep-0440/#normalization): ``2.16.0rc0``, ``2.16.0.dev20231103``,
#: ``2.0.0a0``, ``2.0.0b1``.
_PIP_MARK = {"rc": "rc", "dev": ".dev", "alpha": "a", "beta": "b"}
#: The kinds of those suffixes: one list for the echoes read here and the printed versions
#: the signatures read (signatures.py's ``{{tf_suffix}}``).
TF_SUFFIX_KINDS = tuple(_PIP_MARK)
#: TensorFlow's own suffix of a pre-release; the echo's version ends before it.
_TF_SUFFIX = re.compile(rf"-(?P<kind>{'|'.join(TF_SUFFIX_KINDS)})(?P<number>\d+)")
#: The version a program printed may carry any of them in TensorFlow's spelling, or a
#: candidate's or a nightly's in pip's (``2.17.0rc0``, ``2.16.0.dev20231109``).
TF_PRINTED_SUFFIX = rf"(?:-(?:{'|'.join(TF_SUFFIX_KINDS)})\d+|rc\d+|\.dev\d+)"

#: A shell's one-line program printing one version (``python -c "import tensorflow as tf;
#: print(tf.__version__)"``), typed at a prompt (``$``, ``#``, ``%``, ``C:\\work>``, a notebook's
#: ``!``), and what it printed alone on the next line. A program printing more than one value
#: is left out: which printed line is which is not shown.
_SHELL_ECHO = re.compile(
    r"^[ \t]*(?:\([^()\n]*\)[ \t]*)?(?:[^\n\"';&|]*?[$#%>][ \t]*|![ \t]*)?"
    r"(?:python[\d.]*|py)(?:\.exe)?[ \t]+-c[ \t]+[\"'](?P<program>(?:(?!print\()[^\"'\n]){0,300}?)"
    r"\bprint\(\s*(?P<module>tf|tensorflow|np|numpy|keras|torch)\.__version__\s*\)"
    r"[; \t]*[\"'][ \t]*\r?\n"
    r"[ \t]*['\"]?(?P<version>\d+\.\d+(?:\.\d+)?(?:(?:rc|\.dev|\.post)\d+)?)"
    # TensorFlow's own pre-release suffix (2.17.0-rc0, a nightly's 2.16.0-dev20231109):
    # tf_release_at reads it after the version.
    rf"(?:{_TF_SUFFIX.pattern}|\+[\w.]{{1,40}})?['\"]?[ \t]*\r?$",
    re.MULTILINE,
)
#: One ``import`` statement of a one-line program: its names, each with its ``as`` alias.
_IMPORTED = re.compile(r"(?:^|;)[ \t]*import[ \t]+(?P<names>[\w. \t,]+)")


def _imports_as(program: str, module: str) -> bool:
    """Whether the program's own ``import`` statements bind ``module`` to the package of that
    name in :data:`_MODULES` (``import tensorflow as tf``), not to another one (``import
    tf_keras as keras``, ``from tensorflow import keras``)."""
    for found in _IMPORTED.finditer(program):
        for item in found["names"].split(","):
            name, _, alias = (w.strip() for w in item.partition(" as "))
            if (alias or name) == module:
                return _MODULES.get(name) == _MODULES[module]
    return False


def _shell_echoes(text: str) -> list[re.Match[str]]:
    """:data:`_SHELL_ECHO`'s matches, each looked for on the line of a ``__version__`` (few
    in a log) and the line after it, not across the whole text."""
    out: list[re.Match[str]] = []
    at = text.find("__version__")
    while at >= 0:
        start = text.rfind("\n", 0, at) + 1
        after = text.find("\n", at)
        end = len(text) if after < 0 else text.find("\n", after + 1)
        end = len(text) if end < 0 else end
        found = _SHELL_ECHO.search(text, start, end)
        if found is not None and _imports_as(found["program"], found["module"]):
            out.append(found)
        at = text.find("__version__", after if after >= 0 else len(text))
    return out


#: TensorFlow's issue template's command for the release (``python -c "import tensorflow as
#: tf; print(tf.version.GIT_VERSION, tf.version.VERSION)"``; 1.x's spelled ``tf.GIT_VERSION,
#: tf.VERSION``) and what it prints on the next line: git's description then the release,
#: Python 3 separating them with a space (``v1.14.0-rc1-22-gaf24dc91b5 1.14.0``), Python 2
#: printing the tuple (``('v1.14.0-rc1-22-gaf24dc91b5', '1.14.0')``). Builds before
#: tensorflow/tensorflow#24583 kept GIT_VERSION as bytes, which Python 3 prints with its
#: prefix (``b'v1.12.0-5131-gc6f3c5dc48' 1.13.0-dev20181225``, tensorflow/tensorflow#24578).
_TEMPLATE_ECHO = re.compile(
    r"print\(\s*(?:tf|tensorflow)\.(?:version\.)?GIT_VERSION\s*,\s*"
    r"(?:tf|tensorflow)\.(?:version\.)?VERSION\s*\)[^\n]*\r?\n"
    r"[ \t]*\(?(?:b?')?(?:unknown|v\d[\w.+-]*)'?,?[ \t]+'?"
    r"(?P<version>\d+\.\d+\.\d+)(?![\w.])",
)


@record
class StaleImport(Record):
    """TensorFlow's version echoed after pip replaced it, naming the release pip removed: the
    process imported TensorFlow before the install and still holds that release (observed)."""

    #: The release pip uninstalled, and the one it installed in the same run.
    removed: str
    installed: str
    #: The echo's lines as the log shows them.
    echoed: str
    #: Whether pip's removal of ``removed`` is shown; False: the release is the one echoed,
    #: and pip's note shows the install went into the kernel's own interpreter.
    removal_shown: bool = True


#: One of TensorFlow's own distributions by the name pip prints for it (the project's name in
#: its metadata). TensorFlow 2.0's preview nightlies of 2019 (``facts.TF_DISTRIBUTIONS``) come
#: first: their names hold a release of their own, and pip's ``name-version`` item
#: (``tf-nightly-2.0-preview-2.0.0.dev20190516``) read as ``tf-nightly`` would give release 2.0.
PIP_TF_DIST = r"tf-nightly(?:-gpu)?-2\.0-preview|tensorflow(?:-gpu|-cpu)?|tf-nightly(?:-gpu|-cpu)?"
#: pip's own lines for one of TensorFlow's distributions it removed and installed
#: (req/req_uninstall.py's "Successfully uninstalled %s", commands/install.py's
#: "Successfully installed %s", each item ``name-version``).
_PIP_TF = rf"(?P<dist>{PIP_TF_DIST})-(?P<version>\d[\w.+]{{0,40}})"
PIP_TF_REMOVED = re.compile(rf"^[ \t]*Successfully uninstalled {_PIP_TF}\b", re.MULTILINE)
#: One of those names as pip prints it in an item, and the release after it.
_PIP_TF_NAME = re.compile(PIP_TF_DIST)
_PIP_TF_VERSION = re.compile(r"\d[\w.+]{0,40}")


@record
class TfInstalled(Record):
    """One of TensorFlow's distributions in a pip "Successfully installed" list (observed):
    the first its line names."""

    dist: str
    version: str
    #: pip's line from its words to that item (``Successfully installed absl-py-1.0.0
    #: tensorflow-2.6.0``).
    line: str
    #: Where in the text read the line starts and the item ends.
    start: int
    end: int


def read_tf_installed(text: str) -> Iterator[TfInstalled]:
    """Each "Successfully installed" list of ``text`` that names one of TensorFlow's own
    distributions, with the first it names (``name-version``, as pip prints each item), in
    order."""
    if "Successfully installed" not in text:
        return
    for m in _INSTALLED_LIST.finditer(text):
        for name, version, item_end in _listed_items(m["list"]):
            if _PIP_TF_NAME.fullmatch(name) and _PIP_TF_VERSION.fullmatch(version):
                end = m.start("list") + item_end
                yield TfInstalled(name, version, text[m.start() : end].strip(), m.start(), end)
                break


#: The notes a notebook prints after a pip run in the kernel's own interpreter: IPython's %pip
#: magic (which a bare ``pip install`` line turns into) runs ``sys.executable -m pip`` and then
#: says "Note: you may need to restart the kernel to use updated packages."
#: (IPython/core/magics/packaging.py; Databricks' %pip adds "using
#: dbutils.library.restartPython()"); Colab's pip hook, which reads the kernel's own package
#: metadata, says "You must restart the runtime in order to use newly installed versions."
#: (google.colab's _pip.py).
_KERNEL_PIP_NOTE = re.compile(
    r"^[ \t]*Note: you may need to restart the kernel (?:using \S{1,60} )?to use updated "
    r"packages\.|You must restart the runtime in order to use newly installed versions",
    re.MULTILINE,
)


def read_stale_import(text: str) -> Optional[StaleImport]:
    """The first TensorFlow version echoed after a pip run that replaced TensorFlow, where it
    is the release that run removed: the install changed the files, not the process that had
    imported them. None where the echo shows another release (the one installed, or a third:
    another interpreter) or no such run is shown. Where pip's removal is not shown (a log cut
    to pip's last line; ``-q`` hides both lines, as pip logs them at info level), a note that
    the run went into the kernel's own interpreter stands for it: any other
    release echoed after it is the one the kernel had imported."""
    if "__version__" not in text:
        return None
    if "Successfully uninstalled" not in text:
        return _kernel_kept(text)
    start = 0
    for installed in read_tf_installed(text):
        removed = None
        for candidate in PIP_TF_REMOVED.finditer(text, start, installed.start):
            removed = candidate
        start = installed.end
        if removed is None or removed["version"] == installed.version:
            continue
        echo = next(
            (e for e in _ECHO.finditer(text, installed.end) if _echoed_module(e) in _TF_MODULES),
            None,
        )
        if echo is not None and _echoed_release(text, echo) == removed["version"]:
            return StaleImport(removed["version"], installed.version, echo.group(0).strip())
    return None


def tf_release_at(version: str, text: str, end: int) -> str:
    """TensorFlow's ``version`` as pip spells it, with the pre-release suffix TensorFlow's own
    ``__version__`` writes right after it at ``end`` of ``text`` (``2.16.0`` then
    ``-dev20231103`` is ``2.16.0.dev20231103``); ``version`` where none follows."""
    suffix = _TF_SUFFIX.match(text, end)
    if suffix is None:
        return version
    return f"{version}{_PIP_MARK[suffix['kind']]}{suffix['number']}"


def pip_spelled(version: str) -> str:
    """TensorFlow's own spelling of a candidate's or a nightly's version (``2.17.0-rc0``,
    ``2.16.0-dev20231109``) in pip's (``2.17.0rc0``, ``2.16.0.dev20231109``); any other
    version as it is."""
    suffix = _TF_SUFFIX.search(version)
    if suffix is None:
        return version
    return tf_release_at(version[: suffix.start()], version, suffix.start())


#: The names an interactive interpreter binds TensorFlow to.
_TF_MODULES = tuple(m for m, dist in _MODULES.items() if dist == "tensorflow")


def _echoed_module(echo: re.Match[str]) -> str:
    """The module an echo asked the version of: its ``__version__``'s, or TensorFlow's own
    ``VERSION`` constant's (:data:`_ECHO`'s ``tf_module``)."""
    return echo["module"] or echo.groupdict().get("tf_module") or ""


def _echoed_release(text: str, echo: re.Match[str]) -> str:
    """The release an echo shows, in pip's spelling: its version with the pre-release suffix
    TensorFlow's own ``__version__`` writes right after it (a shell echo's match runs on to
    the end of its line)."""
    return tf_release_at(echo["version"], text, echo.end("version"))


def _kernel_kept(text: str) -> Optional[StaleImport]:
    """A TensorFlow pip installed into the kernel's interpreter (its note after the run),
    then another release echoed: the kernel's import from before the install."""
    for installed in read_tf_installed(text):
        note = _KERNEL_PIP_NOTE.search(text, installed.end)
        if note is None:
            return None
        echo = next(
            (e for e in _ECHO.finditer(text, note.end()) if _echoed_module(e) in _TF_MODULES),
            None,
        )
        if echo is not None and _echoed_release(text, echo) != installed.version:
            return StaleImport(
                _echoed_release(text, echo),
                installed.version,
                echo.group(0).strip(),
                removal_shown=False,
            )
    return None


def read_echoed_versions(texts: Iterable[str]) -> dict[str, str]:
    """The versions a session printed on the line after asking (``{"tensorflow": "2.18.0"}``),
    the first of each distribution; TensorFlow's in pip's spelling (``2.15.0.dev20230816``
    for a nightly's ``2.15.0-dev20230816``)."""
    out: dict[str, str] = {}
    for text in texts:
        if "GIT_VERSION" in text:
            for m in _TEMPLATE_ECHO.finditer(text):
                out.setdefault("tensorflow", _echoed_release(text, m))
        # Each echo names __version__ or TensorFlow's own constant (tf.VERSION,
        # tf.version.VERSION): "VERSION" alone is in most logs (CUDA_VERSION, GIT_VERSION).
        if "__version__" not in text and ".VERSION" not in text:
            continue
        for m in sorted((*_ECHO.finditer(text), *_shell_echoes(text)), key=lambda m: m.start()):
            # TensorFlow's own pre-release suffix (a nightly's -dev20230816) is the release's.
            dist = _MODULES[_echoed_module(m)]
            out.setdefault(dist, _echoed_release(text, m) if dist == "tensorflow" else m["version"])
    return out


# --- conda's package list -----------------------------------------------------------------------

#: The builds of conda's TensorFlow packages: a letter first and the build number last
#: (``eigen_py37h9f89a44_0``, ``cuda118py311h..._1``), or pip's ``pypi_0``; a release
#: ``major.minor`` or ``major.minor.patch``.
_TF_BUILD = re.compile(r"[A-Za-z][\w.]*?_\d+|pypi_0")
_TF_VERSION = re.compile(r"\d+\.\d+(?:\.\d+)?")


#: The packages read from a pasted ``conda list``: TensorFlow's (:data:`CONDA_TENSORFLOW`),
#: TensorBoard's and protobuf, each of which writes one import package (``google/protobuf/``
#: for protobuf) that two installers, or two installs, must not share.
_CONDA_ROW_NAMES = frozenset((*CONDA_TENSORFLOW, *TENSORBOARD_DISTRIBUTIONS, "protobuf"))


def read_conda_rows(texts: Iterable[str]) -> list[CondaRow]:
    """The TensorFlow, TensorBoard and protobuf packages a pasted ``conda list`` shows, in
    order, with or without its header (a paste often leaves it out)."""
    out: list[CondaRow] = []
    for text in texts:
        for prefix in ("tensorflow", "tensorboard", "tb-nightly", "protobuf"):
            out.extend(_conda_rows_named(text, prefix))
    return out


def _conda_rows_named(text: str, prefix: str) -> list[CondaRow]:
    """The rows of :func:`read_conda_rows` in ``text`` whose name starts with ``prefix``."""
    if not text.startswith(prefix) and f"\n{prefix}" not in text:
        return []  # asked first: a block's ``in`` answers from its lines' shapes
    out: list[CondaRow] = []
    # conda list starts each row with the name: only the lines that start so are tried (a
    # long log's own lines start with timestamps), found by a plain search.
    start = 0 if text.startswith(prefix) else text.find(f"\n{prefix}") + 1
    while start >= 0 and (start > 0 or text.startswith(prefix)):
        row = list_row_at(text, start)
        if (
            row is not None
            and row.name in _CONDA_ROW_NAMES
            and _TF_VERSION.fullmatch(row.version)
            and _TF_BUILD.fullmatch(row.build)
        ):
            out.append(row)
        following = text.find(f"\n{prefix}", start)
        start = following + 1 if following >= 0 else -1
    return out


#: Where TensorFlow's own files lie, by the installer that wrote them: conda's package cache
#: (``pkgs/tensorflow-base-2.3.0-mkl_py38h.../``: conda's layout, one folder per package
#: build, https://docs.conda.io/projects/conda/en/stable/dev-guide/deep-dives/install.html),
#: a Debian or Ubuntu package's ``/usr/lib/python3/dist-packages`` (pip writes to
#: ``/usr/local/lib/python3.X/dist-packages`` there: Debian's Python policy, 2.5,
#: https://www.debian.org/doc/packaging-manuals/python-policy/), and TensorFlow's own source
#: tree in a Bazel build's output (``bazel-bin/tensorflow/``,
#: ``bazel-out/k8-opt/bin/tensorflow/``, a ``.runfiles/`` directory whose root is TensorFlow's
#: workspace, ``org_tensorflow``: https://bazel.build/remote/output-directories). Another
#: program Bazel runs holds pip's TensorFlow in its runfiles (rules_python's
#: ``pypi__tensorflow/``, ``rules_python~~pip~pypi_311_tensorflow/``), and TensorFlow
#: Serving's tree is ``bazel-bin/tensorflow_serving/``: neither is a source build of it.
_TF_INSTALLER_PATHS = (
    (re.compile(r"[/\\]pkgs[/\\]tensorflow(?:-base|-gpu|-cpu|-mkl|-eigen)?-\d"), "conda"),
    (re.compile(r"^/usr/lib/python3/dist-packages/tensorflow(?:_core)?/"), "distro"),
    (
        re.compile(
            r"(?:^|[/\\])bazel-(?:bin|out[/\\][^/\\]+[/\\]bin)[/\\]tensorflow[/\\]"
            r"|\.runfiles[/\\](?:org_tensorflow[/\\])?tensorflow[/\\]"
        ),
        "source",
    ),
)


def tf_installer(paths: Iterable[str], conda_listed: Iterable[str]) -> Optional[str]:
    """Who installed TensorFlow, where the log shows it otherwise than pip: ``conda`` (a
    package of :data:`CONDA_TENSORFLOW` in ``conda_listed``, those ``conda list`` shows from a
    conda channel under its header, :func:`tfdoctor.evidence.conda.conda_installed`: the
    same columns printed by ``conda search`` say what a channel offers, not what is
    installed; or its files in conda's package cache), ``distro`` (a Debian package's
    directory) or ``source`` (TensorFlow's own tree in a Bazel build's output), from ``paths``
    of TensorFlow's files (its frames, its directory); None where the log shows none of them
    (pip's, or not shown)."""
    if not frozenset(CONDA_TENSORFLOW).isdisjoint(conda_listed):
        return "conda"
    for path in paths:
        if "tensorflow" not in path:
            continue
        for pattern, installer in _TF_INSTALLER_PATHS:
            if pattern.search(path):
                return installer
    return None


#: OpenVINO's Model Optimizer logs its requirements check at the level the check decided
#: (openvino/tools/mo/utils/versions_checker.py, check_requirements: an error where a module
#: it cannot work without, networkx, defusedxml or numpy, does not import, else a warning,
#: ``extra={'is_warning': True}``), its logger printing the level first
#: (openvino/tools/mo/utils/logger.py, ``[ %(levelname)s ] ``), the message starting on the
#: next line; and it reports a model it converted (convert_impl.py, ``[ SUCCESS ] Generated
#: IR version 11 model.``).
#: https://github.com/openvinotoolkit/openvino/blob/2023.0.0/tools/mo/openvino/tools/mo/utils/versions_checker.py
_MO_LEVEL = re.compile(
    r"\[ (?P<level>ERROR|WARNING) \][ \t]*\r?\n[ \t]*Detected not satisfied dependencies:"
)
_MO_CONVERTED = "[ SUCCESS ] Generated IR"


def mo_check_outcome(text: str) -> Optional[str]:
    """What OpenVINO's Model Optimizer made of its requirements check: ``error`` (it logged
    the check as an error: a module it needs does not import), ``converted`` (it went on and
    wrote the model), ``warning`` (it logged a warning, no conversion shown); None where the
    log shows no level and no conversion."""
    if "Detected not satisfied" not in text and _MO_CONVERTED not in text:
        return None
    level = _MO_LEVEL.search(text)
    if level is not None and level["level"] == "ERROR":
        return "error"
    if _MO_CONVERTED in text:
        return "converted"
    return "warning" if level is not None else None


# --- package listings ---------------------------------------------------------------------------

#: TensorFlow's own distributions, those released in step with it and its companions
#: (``tensorflow-*``: tensorflow-io, tensorflow-probability, tensorflow-text...): the names a
#: listing (_listing) and a `pip show` block (read_listed_versions) give versions of.
#: Companions named otherwise (tfx-bsl, dm-sonnet) are the caller's to name: the companion
#: table (tfdoctor/companions.yaml) pairs their releases with TensorFlow lines, so a listing's
#: version of them is evidence as TensorFlow's is (see :func:`read_listed_versions`).
_LISTED_NAMES = (
    # pip lists a distribution under its registered name: Keras' releases before 2.4 were
    # registered as "Keras" (https://pypi.org/project/Keras/2.3.1/), so `pip list` prints it so.
    # keras-nightly writes the same keras/ folder (https://pypi.org/project/keras-nightly/).
    r"tensorflow(?:[-_][a-z\d]+){0,4}|[Kk]eras(?:[-_]nightly)?|tf[-_]keras|tensorboard"
    # TensorFlow's other distributions (facts.TF_DISTRIBUTIONS): the name says which build
    # provides `import tensorflow`, which libraries that look TensorFlow up by name ask for.
    r"|tf[-_]nightly(?:[-_](?:cpu|gpu))?|intel[-_]tensorflow(?:[-_]avx512)?"
)
#: A version as a listing gives it: a nightly's carries its date (2.5.0.dev20210119); a
#: candidate its rc; tensorflow-rocm's a fourth part, the ROCm release it is built for
#: (2.14.0.600, https://pypi.org/project/tensorflow-rocm/#history).
_LISTED_VERSIONS = r"\d+\.\d+(?:\.\d+(?:\.\d+)?)?(?:\.dev\d+|rc\d+)?"
_LISTED_VERSION = re.compile(_LISTED_VERSIONS)


@functools.lru_cache(maxsize=4)
def _listing(names: tuple[str, ...]) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The listing's line for _LISTED_NAMES and ``names`` (PEP 503 names, each written with
    ``-`` or ``_`` as pip and hand-made lists do), and those names alone, for a `pip show`
    block (read_shown_packages)."""
    # Those distributions' versions a pasted listing gives: ``pip list``'s rows (name, blanks,
    # version), the hand-made ``- name == version`` or ``name: version`` lists of an issue, and
    # ``pip freeze``'s ``name==version`` only after the command that printed it (written
    # alone, that is a requirement, not what is installed). One run of blanks at each place:
    # linear on any line.
    others = "".join("|" + "[-_]".join(map(re.escape, n.split("-"))) for n in names)
    listed = re.compile(
        rf"^[ \t]*(?:[-*][ \t]+)?(?P<name>{_LISTED_NAMES}{others})"
        r"(?P<sep>[ \t]+(?:==?[ \t]+|:[ \t]*)?|==|:[ \t]*)"
        rf"v?(?P<version>{_LISTED_VERSIONS})[ \t]*\r?$",
        re.MULTILINE,
    )
    return listed, re.compile(_LISTED_NAMES + others)


#: The command whose output is pip freeze's pins.
_FREEZE = re.compile(r"\bpip[\d.]*\s+freeze\b|\bpip[\d.]*\s+list\s+--format[= ]freeze\b")


def read_listed_versions(text: str, companions: tuple[str, ...] = ()) -> dict[str, str]:
    """The versions a pasted package listing in ``text`` gives TensorFlow, the distributions
    released in step with it and its companions, ``companions`` naming (PEP 503 names) those
    not named after TensorFlow (``{"tensorflow-estimator": "2.6.0", "tfx-bsl": "0.15.3"}``),
    the first of each; names as pip normalises them. A ``conda list`` gives the versions of
    the companions pip installed too (its rows under its header), after the other listings."""
    # ("eras": keras, and Keras as pip lists its releases before 2.4.)
    if (
        "tensor" not in text
        and "eras" not in text
        and "nightly" not in text
        and not any(n in text or n.replace("-", "_") in text for n in companions)
    ):
        return {}
    line, named = _listing(companions)
    # A block's distinct line shapes (every digit read as 0, each shape once), where the
    # reader hands them: no listing line among them, none in the block, at the cost of the
    # distinct text rather than the whole of a long, repetitive log.
    shapes = getattr(text, "shapes", None)
    shown = "Name:" in text and "Version:" in text
    conda = _conda_listed(text, companions)
    if isinstance(shapes, str) and line.search(shapes) is None and not shown:
        return conda
    out: dict[str, str] = {}
    for name, version in read_shown_packages(text).items() if shown else ():
        if named.fullmatch(name) and _LISTED_VERSION.fullmatch(version):
            out[name] = version
    frozen = -1  # where the last pip freeze command ends, if one was shown
    if "freeze" in text:
        commands = [m.end() for m in _FREEZE.finditer(text)]
        frozen = commands[0] if commands else -1
    for match in line.finditer(text):
        if match.group("sep") == "==" and not 0 <= frozen < match.start():
            continue  # a requirement's pin, not a freeze's output
        out.setdefault(match.group("name").lower().replace("_", "-"), match.group("version"))
    for name, version in conda.items():
        out.setdefault(name, version)
    return out


#: A line of pip's "Successfully installed" items alone (``name-version``: a release starts
#: with a digit), indented: the list's continuation where a paste wrapped pip's one line.
#: Items apart by blanks, as pip joins them: items that could abut would let the engine try
#: every split of one long word.
_WRAPPED_ITEMS = re.compile(
    r"[ \t]+[A-Za-z0-9][\w.-]*-\d[\w.+!]*(?:[ \t]+[A-Za-z0-9][\w.-]*-\d[\w.+!]*)*[ \t]*"
)


def read_installed_versions(text: str, companions: tuple[str, ...] = ()) -> dict[str, str]:
    """The releases pip's "Successfully installed" lists in ``text`` give the distributions a
    listing is read for (:func:`read_listed_versions`: TensorFlow's, Keras', and the
    ``companions``), the last of each (a later install replaced the earlier release), names
    as pip normalises them; a list a paste wrapped over indented lines of items is read whole.
    pip printed what it put in the environment (commands/install.py: "Successfully installed
    %s", each item ``name-version``)."""
    if "Successfully installed" not in text:
        return {}
    _, named = _listing(companions)
    out: dict[str, str] = {}
    for match in _INSTALLED_LIST.finditer(text):
        listed = [match.group("list")]
        end = match.end()
        while end < len(text) and text[end] == "\n":
            line_end = text.find("\n", end + 1)
            line_end = len(text) if line_end < 0 else line_end
            line = text[end + 1 : line_end].rstrip("\r")
            if not _WRAPPED_ITEMS.fullmatch(line):
                break
            listed.append(line)
            end = line_end
        for name, version, _ in _listed_items(" ".join(listed)):
            if named.fullmatch(name) and _LISTED_VERSION.fullmatch(version):
                out[normalize_name(name)] = version
    return out


def _conda_listed(text: str, companions: tuple[str, ...]) -> dict[str, str]:
    """The versions the rows of a ``conda list`` (under its header: evidence.conda's
    listed_rows) give the ``companions`` installed there, by pip (channel ``pypi``) or from a
    conda channel, the first of each (names as pip normalises them: conda-forge spells some
    with ``_``). Whose row it is decides the fix's installer, not whether it is read
    (Machine.install: conda's rows are moved with conda). TensorFlow's own packages are read
    with their builds (read_conda_rows)."""
    out: dict[str, str] = {}
    wanted = frozenset(companions)
    for row in listed_rows(text) if companions else ():
        name = normalize_name(row.name)
        if name in wanted and _LISTED_VERSION.fullmatch(row.version):
            out.setdefault(name, row.version)
    return out


#: `pip show`'s block for any distribution: its Name line, then its Version line (pip's
#: commands/show.py, print_results: "Name: %s" then "Version: %s";
#: https://github.com/pypa/pip/blob/24.0/src/pip/_internal/commands/show.py).
_SHOWN_ANY = re.compile(
    r"^Name:[ \t]*(?P<name>[A-Za-z0-9][A-Za-z0-9._-]{0,100})[ \t]*\r?\n"
    r"Version:[ \t]*(?P<version>\d[\w.+!-]{0,40})[ \t]*\r?$",
    re.MULTILINE,
)


def read_shown_packages(text: str) -> dict[str, str]:
    """Every distribution a ``pip show`` in ``text`` printed, with its version, the first of
    each (names as PEP 503 compares them): what the user chose to inspect beside a failure."""
    if "Name:" not in text or "Version:" not in text:
        return {}
    out: dict[str, str] = {}
    for match in _SHOWN_ANY.finditer(text):
        out.setdefault(normalize_name(match.group("name")), match.group("version"))
    return out


# --- plugins ------------------------------------------------------------------------------------

#: PluggableDevice plugins by the library prefix TensorFlow loads from
#: site-packages/tensorflow-plugins/, the distribution that installs it, and the source.
PLUGINS: tuple[tuple[str, str, str], ...] = (
    ("libmetal_plugin", "tensorflow-metal", "https://developer.apple.com/metal/tensorflow-plugin/"),
    (
        "libitex",
        "intel-extension-for-tensorflow",
        "https://github.com/intel/intel-extension-for-tensorflow",
    ),
    # Microsoft's DirectML plugin: tfdml_plugin.dll on Windows, libtfdml_plugin.so under WSL
    # (its wheel's build script, tfdml/tools/pip_package/build_pip_package.py).
    (
        "tfdml_plugin",
        "tensorflow-directml-plugin",
        "https://github.com/microsoft/tensorflow-directml-plugin",
    ),
    (
        "libtfdml_plugin",
        "tensorflow-directml-plugin",
        "https://github.com/microsoft/tensorflow-directml-plugin",
    ),
)


def plugin_dist(path: str) -> str:
    """The distribution a plugin library under ``tensorflow-plugins/`` belongs to, by its file
    name; empty when the name is not known."""
    name = re.split(r"[/\\]", path)[-1]
    return next((dist for prefix, dist, _ in PLUGINS if name.startswith(prefix)), "")


# --- NumPy's check of the extension modules it loads --------------------------------------------

# NumPy refuses an extension module built for another C API or ABI as it imports it:
# `module compiled against API version 0x10 but this version of numpy is 0xe`, and across
# NumPy 2 `... against ABI version 0x1000009 but this version of numpy is 0x2000000`
# (numpy/_core/code_generators/generate_numpy_api.py, _import_array). NumPy before 1.10
# printed the numbers with "%x", without the 0x (`API version a but ... numpy is 9`).
_NUMPY_BUILD = re.compile(
    r"compiled against (?P<kind>API|ABI) version (?P<built>(?:0x)?[0-9a-fA-F]+) but this "
    r"version of numpy is (?P<running>(?:0x)?[0-9a-fA-F]+)\b"
)
#: The first NumPy release of each C API version
#: (https://github.com/numpy/numpy/blob/main/numpy/_core/code_generators/cversions.txt).
NUMPY_C_API: dict[int, str] = {
    0x9: "1.8",
    0xA: "1.10",
    0xB: "1.13",
    0xC: "1.14",
    0xD: "1.16",
    0xE: "1.20",
    0xF: "1.22",
    0x10: "1.23",
    0x11: "1.25",
    0x12: "2.0",
    0x13: "2.1",
    0x14: "2.3",
    0x15: "2.4",
}


@record
class NumpyBuild(Record):
    """An extension NumPy refused, as NumPy printed it (observed): the NumPy it was built for
    and the one running, each as the first release of its C API (or ABI) version."""

    built: str
    running: str


def _numpy_release(kind: str, value: int) -> Optional[str]:
    if kind == "ABI":  # 0x1000009 is every NumPy 1, 0x2000000 NumPy 2
        return {0x1000009: "1.0", 0x2000000: "2.0"}.get(value)
    return NUMPY_C_API.get(value)


def read_numpy_builds(texts: Iterable[str]) -> list[NumpyBuild]:
    """Every extension NumPy refused in ``texts`` for its C API or ABI version."""
    out: list[NumpyBuild] = []
    for text in texts:
        if "but this version of numpy is" not in text:
            continue
        for m in _NUMPY_BUILD.finditer(text):
            built = _numpy_release(m["kind"], int(m["built"], 16))
            running = _numpy_release(m["kind"], int(m["running"], 16))
            if built and running and NumpyBuild(built, running) not in out:
                out.append(NumpyBuild(built, running))
    return out


@record
class CondaPythonConflict(Record):
    """conda's solver found no build of a TensorFlow release for the environment's Python
    (``UnsatisfiableError``), observed."""

    #: The distribution (``tensorflow``, ``tensorflow-gpu``).
    dist: str
    #: The release asked for, as written (``0.12.0rc0``, ``1.13.1``); empty where none was
    #: (no build of any release for this Python in the channels).
    version: str
    #: The environment's Python as the solver states it (``3.6``, ``3.8.5``).
    python: str
    #: The Pythons the release's builds are for, where the solver lists them (``3.6``,
    #: ``3.7``); empty where it names only the two specifications.
    pythons: tuple[str, ...] = ()


#: conda's UnsatisfiableError (conda/exceptions.py, ``UnsatisfiableError``): the older form
#: lists the specifications in conflict (``  - python 3.6*`` beside ``  - tensorflow
#: 0.12.0rc0*``); conda 4.7 and later name the package with its Python requirement against
#: ``Your python: python=3.8.5``.
_CONDA_SPEC = re.compile(
    r"^[ \t]*-[ \t]+(?P<name>python|tensorflow(?:-gpu|-cpu)?)(?:[ \t]+|==?)"
    r"(?P<version>\d[\w.]*?)\.?\*?[ \t]*$",
    re.MULTILINE,
)
_CONDA_NEEDS_PYTHON = re.compile(
    r"^[ \t]*-[ \t]+(?P<name>tensorflow(?:-gpu|-cpu)?)(?:==?(?P<version>\d[\w.]*))?[ \t]*->[ \t]*"
    r"python\[version='(?P<pythons>[^']+)'\]",
    re.MULTILINE,
)
_CONDA_YOUR_PYTHON = re.compile(r"Your python: python=(?P<python>\d[\d.]*)")
#: conda's "direct" conflicts (the same exceptions.py): "Package python conflicts for:", then
#: each chain a line without a dash, the requested Python a chain of its own
#: ("python=3.8"), beside TensorFlow's requirement of it ("tensorflow=1.0 ->
#: python[version='>=2.7,<2.8.0a0|>=3.5,<3.6.0a0']").
#: https://github.com/conda/conda/blob/4.14.0/conda/exceptions.py
_CONDA_DIRECT_GROUP = "Package python conflicts for:"
_CONDA_DIRECT_PYTHON = re.compile(
    r"^[ \t]*python==?(?P<python>\d+\.\d+(?:\.\d+)?)\.?\*?[ \t]*$", re.MULTILINE
)
_CONDA_DIRECT_NEEDS = re.compile(
    r"^[ \t]*(?P<name>tensorflow(?:-gpu|-cpu)?)(?:==?(?P<version>\d[\w.]*?))?\.?\*?[ \t]*->[ \t]*"
    r"python\[version='(?P<pythons>[^'\n]{1,400})'\][ \t]*$",
    re.MULTILINE,
)
#: One alternative of conda's version expression: ``>=3.6,<3.7.0a0`` or ``3.6.*`` says
#: Python 3.6.
_CONDA_MINOR = re.compile(
    r">=(?P<major>\d+)\.(?P<minor>\d+),<(?P=major)\.(?P<next>\d+)"
    r"|(?:^|\|)(?P<smajor>\d+)\.(?P<sminor>\d+)\.\*"
)


def _conda_pythons(expression: str) -> tuple[str, ...]:
    """The Python minors conda's version expression names (``>=3.6,<3.7.0a0|3.7.*``)."""
    return tuple(
        f"{m.group('major')}.{m.group('minor')}"
        if m.group("major")
        else f"{m.group('smajor')}.{m.group('sminor')}"
        for m in _CONDA_MINOR.finditer(expression)
        if not m.group("major") or int(m.group("next")) == int(m.group("minor")) + 1
    )


def _conda_direct_conflicts(text: str) -> list[CondaPythonConflict]:
    """TensorFlow's requirement of Python against the Python requested, in conda's "Package
    python conflicts for:" group, where none of the Pythons it names is the one requested."""
    out: list[CondaPythonConflict] = []
    start = text.find(_CONDA_DIRECT_GROUP)
    if start < 0:
        return out
    # The group: its lines up to the first blank one (the next group follows one).
    group = text[start + len(_CONDA_DIRECT_GROUP) :].lstrip("\n").split("\n\n", 1)[0]
    asked = _CONDA_DIRECT_PYTHON.search(group)
    if asked is None:
        return out
    minor = ".".join(asked.group("python").split(".")[:2])
    for match in _CONDA_DIRECT_NEEDS.finditer(group):
        pythons = _conda_pythons(match.group("pythons"))
        if not pythons or minor in pythons:
            continue  # a build for the requested Python exists: the conflict is elsewhere
        out.append(
            CondaPythonConflict(
                normalize_name(match.group("name")),
                match.group("version") or "",
                asked.group("python"),
                pythons,
            )
        )
    return out


#: libmamba's problem tree (mamba, conda's libmamba solver): after "The following packages
#: are incompatible", one node a line under box-drawing branches; a requested spec at the
#: top ("python 3.12**  is requested and can be installed", "pin on python =3.13 * is not
#: installable"), a package that cannot be installed ("tensorflow 2.10**  is not installable
#: because it requires", "is uninstallable because"), and below it the leaves that conflict
#: ("python >=3.10,<3.11.0a0 , which conflicts with any installable versions previously
#: reported").
#: https://github.com/mamba-org/mamba/blob/1.5.0/libmamba/src/core/problems_graph.cpp
#: https://github.com/mamba-org/mamba/blob/2.0.0/libmamba/src/solver/problems_graph.cpp
_MAMBA_TREE = "The following packages are incompatible"
_MAMBA_NODE = re.compile(r"^(?P<lead>[^\n├└]{0,60}?)[├└]─[ \t]*(?P<node>[^\n]{1,400})$")
#: mamba 2 and conda's libmamba solver word a top node that can be installed "is installable
#: and it requires" (TreeExplainer::write_diving), a pin's node with its spec after the name
#: ("pin on python 3.11.* =* *"), or a pin by its label alone ("pin-1"), the Python it pins the
#: node below it ("python 3.6.* , which can be installed").
#: https://github.com/mamba-org/mamba/blob/2.0.0/libmamba/src/solver/problems_graph.cpp
_MAMBA_PYTHON_ASKED = re.compile(
    r"^(?:pin on )?python[ \t]*=?=?[ \t]*(?P<python>\d+\.\d+(?:\.\d+)?)[.*]*[^\n]{0,12}?[ \t]+"
    r"is (?:requested and can be installed|not installable|installable and it requires)"
)
_MAMBA_PIN_LABEL = re.compile(r"^pin-\d+[ \t]+is (?:installable and it|not installable because it)")
_MAMBA_PINNED_PYTHON = re.compile(
    r"^python[ \t]*=?=?[ \t]*(?P<python>\d+\.\d+(?:\.\d+)?)[.*]*[ \t]*\*?[ \t]*,[ \t]*"
    r"which can be installed"
)
_MAMBA_TF_ROOT = re.compile(
    r"^(?P<name>tensorflow(?:-gpu|-cpu|-base)?)(?:[ \t]+=?=?[ \t]*(?P<version>\d[\w.]*?))?"
    r"[.*]*[ \t]*\*?[ \t]+is (?:not installable|uninstallable) because"
)
_MAMBA_CONFLICT_LEAF = re.compile(
    r"^(?P<name>[\w.-]+)[ \t]+(?P<spec>[^\n]{0,200}?)[ \t]*(?:,[ \t]*which[ \t]+|[ \t])"
    r"conflicts with (?:any )?installable versions"
)


def _mamba_python_conflicts(text: str) -> list[CondaPythonConflict]:
    """A TensorFlow release libmamba cannot install where every conflict under it is the
    Python (its builds' Pythons against the one requested)."""
    out: list[CondaPythonConflict] = []
    start = text.find(_MAMBA_TREE) if _MAMBA_TREE in text else -1
    if start < 0:
        return out
    nodes = []
    for line in text[start:].split("\n")[1:400]:
        match = _MAMBA_NODE.match(line)
        if match is None:
            continue
        nodes.append((len(match.group("lead")), match.group("node").strip()))
    if not nodes:
        return out
    # The top level: the branches of the leftmost column (a log may prefix every line).
    top = min(column for column, _ in nodes)
    asked = next(
        (
            m
            for column, node in nodes
            if column == top
            for m in [_MAMBA_PYTHON_ASKED.match(node)]
            if m
        ),
        None,
    ) or next(
        (
            m
            for at, (column, node) in enumerate(nodes[:-1])
            if column == top and _MAMBA_PIN_LABEL.match(node)
            for m in [_MAMBA_PINNED_PYTHON.match(nodes[at + 1][1])]
            if m
        ),
        None,
    )
    if asked is None:
        return out
    minor = ".".join(asked.group("python").split(".")[:2])
    for at, (column, node) in enumerate(nodes):
        root = _MAMBA_TF_ROOT.match(node) if column == top else None
        if root is None:
            continue
        below = []
        for inner_column, inner in nodes[at + 1 :]:
            if inner_column == top:
                break
            below.append(inner)
        if any("does not exist" in n or "missing on the system" in n for n in below):
            continue  # a package or a system the channels lack: not the Python
        leaves = [m for n in below for m in [_MAMBA_CONFLICT_LEAF.match(n)] if m]
        if not leaves or any(m.group("name") not in ("python", "python_abi") for m in leaves):
            continue
        # conda-forge's builds require python_abi beside python (``python_abi 3.12.* *_cp312``):
        # the minor it names is the build's Python as well.
        pythons = tuple(dict.fromkeys(p for m in leaves for p in _conda_pythons(m.group("spec"))))
        if not pythons or minor in pythons:
            continue
        out.append(
            CondaPythonConflict(
                normalize_name(root.group("name")),
                root.group("version") or "",
                asked.group("python"),
                pythons,
            )
        )
    return out


#: libmamba's top node for a package the user asked for ("numpy 2.0**  is requested and can
#: be installed", "numpy >=2  is requested ..."): its name and the spec as libmamba prints it,
#: a fuzzy release with trailing stars (``2.0**``: every 2.0 release).
#: https://github.com/mamba-org/mamba/blob/1.5.0/libmamba/src/core/problems_graph.cpp
_MAMBA_REQUESTED = re.compile(
    r"^(?P<name>[A-Za-z0-9][\w.-]{0,100}?)[ \t]+=?(?P<spec>[<>!=~]{0,2}[ \t]*\d[\w.,<>=!]{0,60}?)"
    r"(?P<star>\*{0,2})[ \t]+is requested and can be installed"
)
#: A package libmamba cannot install, any package's (its version as the node prints it).
_MAMBA_ROOT = re.compile(
    r"^(?P<name>[A-Za-z0-9][\w.-]{0,100}?)(?:[ \t]+=?=?[ \t]*(?P<version>\d[\w.]*?))?"
    r"[.*]*[ \t]*\*?[ \t]+is (?:not installable|uninstallable) because"
)


def _mamba_nodes(text: str) -> list[tuple[int, str]]:
    """libmamba's problem tree below its head, each node with its column (the depth)."""
    start = text.find(_MAMBA_TREE)
    nodes = []
    for line in text[start:].split("\n")[1:400]:
        match = _MAMBA_NODE.match(line)
        if match is not None:
            nodes.append((len(match.group("lead")), match.group("node").strip()))
    return nodes


def _mamba_requested(text: str) -> list[Conflict]:
    """A package the user asked for (a top node "is requested and can be installed") against
    the range a package that cannot be installed requires of it, where that range is one of
    the leaves right below it that conflict ("numpy >=1.22.4,<2.0a0 , which conflicts with
    any installable versions previously reported"): the user's request against its range,
    as pip's "The user requested" beside "depends on". Python's and the system's (virtual
    packages) are read apart (:func:`read_conda_python_conflicts`)."""
    nodes = _mamba_nodes(text)
    if not nodes:
        return []
    top = min(column for column, _ in nodes)
    roots: list[tuple[str, str]] = []
    for column, node in nodes:
        asked = _MAMBA_REQUESTED.match(node) if column == top else None
        if asked is None or asked["name"] in ("python", "python_abi"):
            continue
        version = asked["spec"].replace(" ", "")
        # libmamba prints a fuzzy request (``numpy=2.0``) as the release with stars.
        spec = _conda_spec(f"{version}.*" if asked["star"] and version[0].isdigit() else version)
        if spec:
            roots.append((asked["name"], spec))
    sides: list[tuple[str, str, str, str]] = []
    for at, (column, node) in enumerate(nodes):
        root = _MAMBA_ROOT.match(node) if column == top else None
        if root is None or not root["version"]:
            continue
        below = list(itertools.takewhile(lambda n: n[0] > top, nodes[at + 1 :]))
        child = min((c for c, _ in below), default=0)
        for inner_column, inner in below:
            leaf = _MAMBA_CONFLICT_LEAF.match(inner) if inner_column == child else None
            spec = _conda_spec(leaf["spec"].strip().replace(" ", "")) if leaf else None
            if leaf is not None and spec:
                sides.append((root["name"], root["version"], leaf["name"], spec))
    return _root_requested(sides, roots, "conda")


def read_conda_python_conflicts(texts: Iterable[str]) -> list[CondaPythonConflict]:
    """Every TensorFlow release conda's solver says has no build for the environment's
    Python, in order."""
    out: list[CondaPythonConflict] = []
    for text in texts:
        out.extend(c for c in _mamba_python_conflicts(text) if c not in out)
        if "UnsatisfiableError" not in text:
            continue
        your = _CONDA_YOUR_PYTHON.search(text)
        for match in _CONDA_NEEDS_PYTHON.finditer(text):
            if your is None:
                continue
            out.append(
                CondaPythonConflict(
                    normalize_name(match.group("name")),
                    match.group("version") or "",
                    your.group("python"),
                    _conda_pythons(match.group("pythons")),
                )
            )
        if your is None:
            out.extend(c for c in _conda_direct_conflicts(text) if c not in out)
        specs = {m.group("name"): m.group("version") for m in _CONDA_SPEC.finditer(text)}
        python = specs.pop("python", None)
        for name, version in specs.items():
            if python is not None and not any(c.dist == name for c in out):
                out.append(CondaPythonConflict(normalize_name(name), version, python))
        if len(out) >= MAX_CONFLICTS:
            return out[:MAX_CONFLICTS]
    return out


@record
class CondaMissingRelease(Record):
    """A release of TensorFlow (or of CUDA's ``cudatoolkit``, which TensorFlow's GPU builds
    load) that conda found in none of the channels it searched (``PackagesNotFoundError``),
    observed."""

    #: The distribution (``tensorflow``, ``tensorflow-gpu``, ``cudatoolkit``).
    dist: str
    #: The release asked for, as written (``1.7.0``, ``1.0*``).
    version: str
    #: The platform conda solved for (``win-64``, ``linux-64``), where the log shows it;
    #: empty otherwise.
    platform: str = ""


# conda's PackagesNotFoundError (conda/exceptions.py): "The following packages are not
# available from current channels:", then one requested specification a line ("  -
# tensorflow=1.7.0", a channel's name before it where asked so: "conda-forge::"), then the
# channels it searched.
_CONDA_NOT_AVAILABLE = "The following packages are not available from current channels:"
_CONDA_MISSING_NAMES = r"tensorflow(?:-gpu|-cpu|-base)?|cudatoolkit"
_CONDA_MISSING_SPEC = re.compile(
    rf"^[ \t]*-[ \t]+(?:[\w.-]+::)?(?P<name>{_CONDA_MISSING_NAMES})[ \t]*==?[ \t]*"
    r"(?P<version>\d[\w.]*\*?)[ \t]*$"
)
#: The platform conda solves for: its own line under the channels (conda 23.11 on: "Channels:"
#: then " - conda-forge", then "Platform: win-64"), else the subdirectory of each channel URL
#: it lists as searched ("  - https://conda.anaconda.org/conda-forge/win-64").
_CONDA_PLATFORM = re.compile(
    r"^Platform: (?P<platform>(?:linux|win|osx)-\w+)[ \t]*$"
    r"|^[ \t]*- https?://\S+/(?P<subdir>(?:linux|win|osx)-\w+)/?[ \t]*$",
    re.MULTILINE,
)


def _conda_platform(text: str) -> str:
    """The platform conda says it solved for in ``text``, or empty."""
    found = _CONDA_PLATFORM.search(text)
    return (found["platform"] or found["subdir"]) if found is not None else ""


# The same list under conda's ResolvePackageNotFound (conda env create and older solvers:
# the specifications no channel package matches, one "  - spec" a line after the name;
# https://github.com/conda/conda/blob/4.14.0/conda/exceptions.py).
_CONDA_UNRESOLVED = "ResolvePackageNotFound:"
# libsolv's words in mamba and conda's libmamba solver: "nothing provides requested
# tensorflow 2.15.*" (src/problems.c, solver_problemruleinfo2str's SOLVER_RULE_JOB_
# NOTHING_PROVIDES_DEP; https://github.com/openSUSE/libsolv/blob/0.7.24/src/problems.c). A
# build string after the version (an environment exported with builds) is another question.
# mamba prints a version request with its build's wildcard after it ("tensorflow-gpu 2.16**":
# the version 2.16*, any build).
_LIBSOLV_MISSING = re.compile(
    rf"nothing provides requested (?P<name>{_CONDA_MISSING_NAMES}) "
    r"(?:==?[ \t]?)?(?P<version>\d[\w.]*\*?)\*?[ \t]*$",
    re.MULTILINE,
)


def read_conda_missing_releases(texts: Iterable[str]) -> list[CondaMissingRelease]:
    """Every pinned TensorFlow (or cudatoolkit) release conda (or mamba) says is not
    available from its channels, in order (a request without a version is no release's: the
    channels lack the package), with the platform it solved for where the text shows it."""
    out: list[CondaMissingRelease] = []
    for text in texts:
        if (
            _CONDA_NOT_AVAILABLE not in text
            and _CONDA_UNRESOLVED not in text
            and "nothing provides requested" not in text
        ):
            continue
        platform = _conda_platform(text)
        for header in (_CONDA_NOT_AVAILABLE, _CONDA_UNRESOLVED):
            start = text.find(header) if header in text else -1
            while start >= 0 and len(out) < MAX_CONFLICTS:
                # The list: the lines after the header, up to the channels conda searched.
                for line in text[start + len(header) :].split("\n")[1:30]:
                    if line.strip().startswith("Current channels"):
                        break
                    match = _CONDA_MISSING_SPEC.match(line)
                    if match is not None:
                        found = CondaMissingRelease(
                            normalize_name(match.group("name")), match.group("version"), platform
                        )
                        if found not in out:
                            out.append(found)
                start = text.find(header, start + 1)
        if "nothing provides requested" in text:
            for match in _LIBSOLV_MISSING.finditer(text):
                found = CondaMissingRelease(
                    normalize_name(match.group("name")), match.group("version"), platform
                )
                if found not in out:
                    out.append(found)
    return out[:MAX_CONFLICTS]


# --- a program asking for a package -------------------------------------------------------------


@record
class InstallRequest(Record):
    """A program's own words that a named package or module must be installed for it to go
    on (observed: the name as printed, not yet resolved to a distribution)."""

    #: The module or distribution name as the sentence prints it.
    name: str
    #: The line it was read from, stripped.
    line: str
    #: Its index among the text's lines.
    index: int


#: The sentences programs use to say a package is missing, whatever the program: each names
#: the package in a group ``name`` (or a comma-separated ``names``). Rasa's "Please install
#: the package(s) that contain the module(s): tensorflow_text", "You must install pydot",
#: "please install tensorflow-addons", "h5py is not installed", "requires the X package to be
#: installed" and a ``pip install X`` inside a sentence that says something is missing.
_QUOTE = r"[`'\"]?"
_PKG = r"(?P<name>[A-Za-z][\w.-]*[A-Za-z0-9])"
_REQUESTS: tuple[re.Pattern[str], ...] = (
    re.compile(r"package\(s\) that contains? the module\(s\):\s*(?P<names>[\w.]+(?:,\s*[\w.]+)*)"),
    re.compile(
        r"(?i:please|you (?:must|need to|should|have to)|make sure to|be sure to)\s+"
        rf"(?:first\s+)?install\s+(?:the\s+)?(?:(?:python\s+)?(?:package|module|library)\s+)?"
        rf"{_QUOTE}{_PKG}{_QUOTE}"
    ),
    re.compile(rf"{_QUOTE}{_PKG}{_QUOTE}\s+(?:is|are)\s+not\s+installed"),
    re.compile(
        rf"requires\s+(?:the\s+)?{_QUOTE}{_PKG}{_QUOTE}\s+(?:(?:package|module|library)\s+)?"
        r"(?:to be installed|but it was not found|which is not installed)"
    ),
    re.compile(rf"\bpip3?\s+install\s+(?:-U\s+|--upgrade\s+|--user\s+)*{_QUOTE}{_PKG}"),
)
#: What a sentence with ``pip install X`` must also say for X to be a package it lacks (pip's
#: own notices and tips name packages too: "To update, run: pip install --upgrade pip").
_MISSING_WORDS = re.compile(
    r"(?i)not (?:been )?installed|not found|\bmissing\b|could not (?:import|load|find)|"
    r"\brequires?\b|\brequired\b|please install|must install|need to install"
)
#: Words every request holds; a block without one is not read.
_REQUEST_WORDS = ("install",)
#: Lines that are warnings or notices: a program that goes on is not stopped by the package.
_NOT_FAILING = re.compile(r"(?i)warn|\bnotice\b|optional|\bfaster\b|recommended|deprecat")
#: What marks a line as printed by a program that stopped: an exception's type before its
#: message, or a logger's error level. A user's own sentence ("I ran pip install X") is not.
_PRINTED_FAILURE = re.compile(
    r"\b[A-Z]\w*(?:Error|Exception)\b\s*:|\b(?:ERROR|CRITICAL|FATAL)\b|^\s*E\s"
)
#: A user writing in the first person, or saying it is done: their words, not a program's.
_FIRST_PERSON = re.compile(r"(?i)\b(?:I|I'm|I've|we|my|our)\b|\bdone\b|\balready\b")
#: Words a request's name slot holds that name no package ("please install the package(s)
#: that ...", "install it").
_NOT_NAMES = frozenset(
    {
        "package",
        "packages",
        "module",
        "modules",
        "library",
        "libraries",
        "it",
        "them",
        "this",
        "that",
        "the",
        "dependencies",
        "requirements",
    }
)
#: Requests kept per log.
MAX_REQUESTS = 10
#: A line longer than this is not a sentence a program printed (a pasted blob): not read.
_REQUEST_LINE = 2000


def read_install_requests(text: str) -> list[InstallRequest]:
    """Every package a program's failing sentence in ``text`` asks to be installed, in order
    (warnings and notices that name an optional package are not requests)."""
    if not any(word in text for word in _REQUEST_WORDS):
        return []
    out: list[InstallRequest] = []
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if "install" not in line or len(line) > _REQUEST_LINE or _NOT_FAILING.search(line):
            continue
        # The program's mark on this line, or on the one before it (a message a terminal or
        # a paste wrapped onto a second line).
        marked = _PRINTED_FAILURE.search(line) or (
            index > 0
            and len(lines[index - 1]) <= _REQUEST_LINE
            and _PRINTED_FAILURE.search(lines[index - 1])
        )
        if not marked or _FIRST_PERSON.search(line):
            continue
        for i, pattern in enumerate(_REQUESTS):
            match = pattern.search(line)
            if match is None:
                continue
            if i == len(_REQUESTS) - 1 and not _MISSING_WORDS.search(line):
                continue
            names = match.groupdict().get("names")
            for name in names.split(",") if names else (match.group("name"),):
                found = InstallRequest(name.strip().rstrip("."), line.strip(), index)
                if found.name.lower() in _NOT_NAMES:
                    continue
                if found.name and all(r.name != found.name for r in out):
                    out.append(found)
        if len(out) >= MAX_REQUESTS:
            break
    return out[:MAX_REQUESTS]


#: An install run inside a notebook's kernel (IPython's shell escape ``!pip install`` or the
#: ``%pip``/``%conda`` magics), maybe behind the cell's prompt (``In [2]: !pip install x``).
_KERNEL_INSTALL = re.compile(
    r"^[ \t]*(?:In \[\d*\]: ?)?[!%](?:pip3?|conda|mamba|python3? -m pip) install\b"
    r"(?P<args>[^\n]{0,500})",
    re.MULTILINE,
)
_REQUIREMENT_NAME = re.compile(r"^[\"']?(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)")
#: pip's and conda's options whose value is the next word.
_VALUED_OPTIONS = frozenset(
    {
        "-c",
        "--channel",
        "-r",
        "--requirement",
        "-e",
        "--editable",
        "-i",
        "--index-url",
        "--extra-index-url",
        "-f",
        "--find-links",
        "-t",
        "--target",
        "--prefix",
        "-n",
        "--name",
        "--constraint",
        "-p",
    }
)
#: Distributions installed in a running kernel kept per log.
MAX_KERNEL_INSTALLS = 20


#: pip's own words for a distribution it found installed (req/constructors and resolution's
#: "Requirement already satisfied: %s in %s"; what it installed is :data:`_INSTALLED_LIST`),
#: and its note that it went to the user's site directory (commands/install.py's
#: "Defaulting to user installation").
_PIP_SATISFIED = re.compile(
    r"^[ \t]*Requirement already satisfied: (?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)[^\n]{0,40}? in ",
    re.MULTILINE,
)


def read_pip_installed(text: str) -> list[str]:
    """The distributions (PEP 503 names, in order) pip says it installed or found installed
    in the environment it ran for; none where it installed into the user's site directory,
    which a running interpreter started before it existed does not search."""
    if "Defaulting to user installation" in text:
        return []
    out: list[str] = []
    for match in _INSTALLED_LIST.finditer(text):
        for name in installed_items(match.group("list")):
            if name not in out:
                out.append(name)
    for match in _PIP_SATISFIED.finditer(text) if "already satisfied" in text else ():
        name = normalize_name(match.group("name"))
        if name not in out:
            out.append(name)
    return out[:MAX_KERNEL_INSTALLS]


#: pip show's record of an installed distribution (pip/_internal/commands/show.py,
#: print_results: "Name: %s", "Version: %s", the metadata's fields, then "Location: %s"):
#: its name and the site directory it is in, a few lines apart.
_PIP_SHOWN = re.compile(
    r"(?m)^Name: (?P<name>[A-Za-z0-9][\w.-]{0,100})[ \t\r]*\n"
    r"Version: [^\n]{1,60}\n(?:[A-Z][\w-]{1,40}:[^\n]{0,2000}\n){0,12}?"
    r"Location: (?P<location>[^\n]{1,400})"
)
#: The user's site directory (pip's --user, or its fallback): a kernel started before it
#: existed does not search it, so its packages missing there are a restart's matter.
_USER_SITE = re.compile(r"/\.local/lib/python|[\\/]AppData[\\/]Roaming[\\/]Python", re.IGNORECASE)


def read_pip_shown(text: str) -> list[str]:
    """The distributions (PEP 503 names, in order) ``pip show`` reports installed in the
    environment it ran for, outside the user's site directory."""
    if "Location: " not in text:
        return []
    out: list[str] = []
    for match in _PIP_SHOWN.finditer(text):
        name = normalize_name(match.group("name"))
        if not _USER_SITE.search(match.group("location")) and name not in out:
            out.append(name)
    return out[:MAX_KERNEL_INSTALLS]


#: pip's options whose value is what to install, not a package's name: a requirements file,
#: an editable project (pip's -r and -e, attached as ``-rreqs.txt`` or ``--requirement=``).
_FROM_UNNAMED = frozenset({"-r", "--requirement", "-e", "--editable"})
_FROM_UNNAMED_JOINED = re.compile(r"^(?:-[re]\S|--(?:requirement|editable)=)")


def kernel_installs_unnamed(text: str) -> bool:
    """Whether an install in a notebook's running kernel in ``text`` (the lines
    :func:`read_kernel_installs` reads) takes something that names no distribution on its line:
    a requirements file, an editable project, a local path or archive, a URL
    (``git+https://...``): what that brings is not on the line."""
    if "install" not in text:
        return False
    for match in _KERNEL_INSTALL.finditer(text):
        args = match.group("args").split()
        for i, arg in enumerate(args):
            before = args[i - 1] if i else ""
            if before in _FROM_UNNAMED or _FROM_UNNAMED_JOINED.match(arg):
                return True
            if before in _VALUED_OPTIONS or arg.startswith("-"):
                continue
            if (
                "/" in arg
                or arg.startswith(".")
                or arg.endswith((".txt", ".whl", ".zip", ".tar.gz"))
            ):
                return True
    return False


def read_kernel_installs(text: str) -> list[str]:
    """The distributions (PEP 503 names, in order) that ``text`` shows installed from inside a
    notebook's running kernel: what the kernel imported before stays in its memory."""
    if "install" not in text:
        return []
    out: list[str] = []
    for match in _KERNEL_INSTALL.finditer(text):
        for name in _kernel_install_names(match.group("args")):
            if name not in out:
                out.append(name)
        if len(out) >= MAX_KERNEL_INSTALLS:
            break
    return out[:MAX_KERNEL_INSTALLS]


def _kernel_install_names(args: str) -> list[str]:
    """The distributions (PEP 503 names, in order) one install line's ``args`` names."""
    words = args.split()
    out: list[str] = []
    for i, arg in enumerate(words):
        if i and words[i - 1] in _VALUED_OPTIONS:
            continue  # an option's value (a channel, an index, an environment's name)
        if arg.startswith("-") or "/" in arg or arg.endswith(".txt"):
            continue  # options, paths, URLs and requirement files name no package here
        name = _REQUIREMENT_NAME.match(arg)
        if name is not None:
            out.append(normalize_name(name.group("name")))
    return out


def kernel_install_end(text: str, dist: str) -> Optional[int]:
    """Where in ``text`` the first install in a running kernel that names ``dist`` (a PEP 503
    name) ends: pip's lines about that install come after it. None where no such line of
    ``text`` names it."""
    if "install" not in text:
        return None
    for match in _KERNEL_INSTALL.finditer(text):
        if dist in _kernel_install_names(match.group("args")):
            return match.end()
    return None
