"""Every declared requirement judged: TensorFlow's on its dependencies, each companion's on
TensorFlow, tf-keras and keras; what ``pip check`` names, and more, with the side to move.

The requirement lines are the real ones: TensorFlow 2.21.0's METADATA and the headers of the
companions' wheels on PyPI (``tests/data/pypi/metadata``). Each fix is checked as a property:
applied to the facts, the cause it answers is gone.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Optional

import pytest

from tests import factories as f
from tests.commandline import tfdoctor, write_facts
from tests.fakeenv import FakeEnv, check, found, make_env, tf_requires
from tfdoctor.causes.common import companion_install
from tfdoctor.checks import run_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.facts import Facts, PackageFacts, normalize_name
from tfdoctor.findings import Finding, Severity
from tfdoctor.machine import Machine
from tfdoctor.matrix import (
    DEFAULT_COMPANIONS,
    Companion,
    MatrixError,
    load_companions,
    parse_companions,
)
from tfdoctor.probes.pyenv import probe_pyenv

METADATA = Path(__file__).resolve().parent / "data" / "pypi" / "metadata"
PIP = f"{f.python().executable} -m pip"
H5PY_RANGE = "h5py<3.15.0,>=3.11.0"


def declared(name: str, version: str) -> tuple[str, ...]:
    """The ``Requires-Dist`` lines of a real release (``tensorflow_text``, ``2.20.0``)."""
    text = (METADATA / f"{name}-{version}.METADATA").read_text(encoding="utf-8")
    return tuple(
        line.split(":", 1)[1].strip()
        for line in text.splitlines()
        if line.startswith("Requires-Dist:")
    )


def companion(name: str, version: str) -> PackageFacts:
    """An installed companion declaring what its real wheel declares."""
    return f.pkg(name, version, *declared(name.replace("-", "_"), version))


#: Releases a fix may install, with what their wheels declare.
RELEASES = {
    "tensorflow-text==2.21.0": declared("tensorflow_text", "2.21.0"),
    "tf-keras==2.21.0": declared("tf_keras", "2.21.0"),
}


def tf221(*extra: PackageFacts, env: Optional[dict[str, str]] = None, **kw: Any) -> Facts:
    """TensorFlow 2.21.0 (its real requirements) with each in range, and ``extra``."""
    tf = f.pkg("tensorflow", "2.21.0", *tf_requires(), top_level=("tensorflow",))
    present = {
        "numpy": "2.1.3",
        "keras": "3.12.0",
        "protobuf": "6.31.1",
        "ml-dtypes": "0.5.1",
        "h5py": "3.14.0",
        "tensorboard": "2.20.0",
    }
    wanted = {normalize_name(p.name) for p in extra}
    base = tuple(f.pkg(n, v) for n, v in present.items() if n not in wanted)
    return f.facts(
        python=f.python(version="3.11.9"),
        packages=(tf, *base, *extra),
        tensorflow=f.tensorflow(version="2.21.0", cuda_version="12.5", cudnn_version="9"),
        environment={"PATH": "/usr/bin:/bin", **(env or {})},
        **kw,
    )


def pins(facts: Facts) -> list[Finding]:
    return [x for x in run_checks(CheckContext(facts, f.FIXTURE_MATRIX)) if x.id == "packages.pins"]


def causes(found: Iterable[Finding]) -> list[Optional[str]]:
    return [x.cause for x in found]


def fixed(facts: Facts, finding: Finding) -> Facts:
    """The facts after the finding's fix."""
    assert finding.fix is not None
    after = f.apply_pip(facts, finding.fix.commands, metadata=RELEASES)
    assert after is not None, finding.fix.commands
    return after


# --- TensorFlow's own requirements --------------------------------------------------------------


def test_in_range_everywhere_is_quiet() -> None:
    assert pins(tf221()) == []


def test_h5py_outside_tensorflows_range_is_a_warning_naming_what_breaks() -> None:
    facts = tf221(f.pkg("h5py", "3.16.0"))
    (finding,) = pins(facts)
    assert (finding.severity, finding.cause) == (Severity.WARNING, "dependency-out-of-range")
    assert finding.summary == f"h5py 3.16.0 is outside TensorFlow 2.21.0's range {H5PY_RANGE}"
    assert "Keras HDF5 files" in finding.detail
    assert finding.fix is not None
    assert finding.fix.commands == (f'{PIP} install "{H5PY_RANGE}"',)
    assert pins(fixed(facts, finding)) == []


def test_a_pre_release_inside_the_range_is_in_range_as_pip_check_judges_it() -> None:
    assert pins(tf221(f.pkg("numpy", "2.3.0rc1"), f.pkg("h5py", "3.14.0rc1"))) == []


def test_a_requirement_outside_the_old_list_of_four_is_judged() -> None:
    # requests<3: neither a start-time import nor one of numpy/keras/protobuf/ml-dtypes.
    (finding,) = pins(tf221(f.pkg("requests", "3.0.0")))
    assert finding.severity is Severity.WARNING
    assert "requests 3.0.0" in finding.summary and "requests<3,>=2.21.0" in finding.summary


def test_a_missing_lazily_imported_requirement_is_a_warning() -> None:
    facts = tf221()
    packages = facts.packages or ()
    tf = dataclasses.replace(packages[0], requires_missing=("h5py",))
    facts = dataclasses.replace(
        facts, packages=(tf, *(p for p in packages[1:] if p.name != "h5py"))
    )
    (finding,) = pins(facts)
    assert (finding.severity, finding.cause) == (Severity.WARNING, "dependency-missing")
    assert "h5py: imported when used, by Keras HDF5 files" in finding.detail


def test_what_a_wrappers_platform_build_declares_is_judged() -> None:
    # The Windows wheel of tensorflow 2.16.2 declares only tensorflow-intel==2.16.2 (its real
    # METADATA); tensorflow-intel declares the rest, here an h5py range (the matrix pins none).
    windows = f.platform(
        system="Windows", release="10", machine="AMD64", libc="", libc_version=None
    )
    wrapper = f.pkg("tensorflow", "2.16.2", *declared("tensorflow", "2.16.2-windows"))
    inner = f.pkg(
        "tensorflow-intel",
        "2.16.2",
        "h5py>=3.10.0",
        "tensorboard<2.17,>=2.16",
        top_level=("tensorflow",),
    )
    facts = f.facts(
        platform=windows,
        python=f.python(version="3.11.9", executable="C:\\venv\\Scripts\\python.exe"),
        packages=(wrapper, inner, f.pkg("h5py", "3.9.0"), f.pkg("tensorboard", "2.16.2")),
        tensorflow=f.tensorflow(version="2.16.2"),
    )
    (finding,) = pins(facts)
    assert finding.summary == "h5py 3.9.0 is outside TensorFlow 2.16.2's range h5py>=3.10.0"


def _windows_wrapper_alone(status: str) -> Facts:
    """tensorflow 2.16.2's Windows wheel (its real METADATA: it requires only
    tensorflow-intel==2.16.2 there) without tensorflow-intel, whose files hold the code."""
    windows = f.platform(
        system="Windows", release="10", machine="AMD64", libc="", libc_version=None
    )
    wrapper = f.pkg("tensorflow", "2.16.2", *declared("tensorflow", "2.16.2-windows"))
    return f.facts(
        platform=windows,
        python=f.python(version="3.11.9", executable="C:\\venv\\Scripts\\python.exe"),
        packages=(wrapper,),
        tensorflow=f.tensorflow(version="2.16.2", status=status),
    )


def test_the_build_a_platforms_wrapper_wheel_needs_is_missing() -> None:
    facts = _windows_wrapper_alone("not-installed")
    (finding,) = [x for x in pins(facts) if x.cause == "dependency-missing"]
    assert finding.severity is Severity.ERROR
    assert "tensorflow-intel" in finding.summary
    assert "tensorflow-intel==2.16.2" in " ".join(finding.fix.commands if finding.fix else ())
    after = f.apply_pip(facts, finding.fix.commands if finding.fix else (), add_missing=True)
    assert after is not None
    assert "dependency-missing" not in causes(pins(after))
    # Where TensorFlow was seen to import, the code came from elsewhere: a warning only.
    (seen,) = [x for x in pins(_windows_wrapper_alone("ok")) if x.cause == "dependency-missing"]
    assert seen.severity is Severity.WARNING


# --- companions ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("env", "severity"),
    [
        pytest.param(
            {"TF_USE_LEGACY_KERAS": "1"}, Severity.ERROR, id="legacy-keras-serves-tf.keras"
        ),
        pytest.param({}, Severity.WARNING, id="not-serving-tf.keras"),
    ],
)
def test_tf_keras_of_another_line_is_one_finding_fixed_by_its_release(
    env: dict[str, str], severity: Severity
) -> None:
    facts = tf221(companion("tf-keras", "2.20.1"), env=env)
    (finding,) = pins(facts)  # one cause, one fix: not a companion-mismatch as well
    assert (finding.severity, finding.cause) == (severity, "tf-keras-mismatch")
    assert "wants tensorflow<2.21,>=2.20" in finding.summary
    assert finding.fix is not None
    assert finding.fix.commands == (f'{PIP} install "tf-keras<2.22,>=2.21"',)
    assert pins(fixed(facts, finding)) == []


def test_a_range_behind_the_tensorflow_extra_is_read_and_the_move_of_tensorflow_said() -> None:
    # tensorflow-io declares its range only behind its `tensorflow` extra (pip check never
    # reads it); no release of it admits TensorFlow 2.21, so only TensorFlow can move.
    (finding,) = pins(tf221(companion("tensorflow-io", "0.37.1")))
    assert (finding.severity, finding.cause) == (Severity.ERROR, "companion-mismatch")
    assert "requires tensorflow<2.17.0,>=2.16.0" in finding.summary
    assert finding.fix is not None
    assert "No tensorflow-io release for TensorFlow 2.21.0 is known" in finding.fix.text
    assert "downgrades TensorFlow from 2.21.0" in finding.fix.text
    assert finding.fix.commands == (f'{PIP} install "tensorflow<2.17.0,>=2.16.0"',)


def test_an_end_of_life_companion_says_so_before_tensorflow_is_downgraded() -> None:
    (finding,) = pins(tf221(companion("tensorflow-addons", "0.23.0")))
    assert finding.cause == "companion-mismatch"
    assert finding.fix is not None
    assert finding.fix.text.startswith("TensorFlow Addons reached its end of life")
    assert "downgrades TensorFlow from 2.21.0" in finding.fix.text
    assert "moving the code off tensorflow-addons is the lasting fix" in finding.fix.text


def test_a_companion_pinning_one_tensorflow_gets_that_tensorflow_where_no_release_fits() -> None:
    # tensorflow-decision-forests 1.12 declares tensorflow==2.19.0; the table knows no
    # release for 2.21.
    # Its tf-keras range moves with it: one finding, not one more for the missing tf-keras.
    (finding,) = pins(tf221(companion("tensorflow-decision-forests", "1.12.0")))
    assert "requires tensorflow==2.19.0" in finding.summary
    assert (finding.severity, finding.cause) == (Severity.ERROR, "companion-mismatch")
    assert finding.fix is not None
    assert finding.fix.commands == (f'{PIP} install "tensorflow==2.19.0"',)


def test_a_companions_keras_range_is_installed_within_tensorflows() -> None:
    # tensorflow-decision-forests 1.12 requires tf_keras~=2.19 (and tensorflow==2.19.0, here
    # met); TensorFlow 2.19 pairs with tf-keras<2.20,>=2.19: the fix asks for a tf-keras
    # both accept, never one that breaks TensorFlow.
    tf = f.pkg("tensorflow", "2.19.0", *declared("tensorflow", "2.19.1-linux"))
    facts = f.facts(
        packages=(
            dataclasses.replace(tf, top_level=("tensorflow",)),
            f.pkg("tensorboard", "2.19.0"),
            companion("tensorflow-decision-forests", "1.12.0"),
        ),
        tensorflow=f.tensorflow(version="2.19.0"),
    )
    (finding,) = pins(facts)
    assert finding.summary == (
        "tensorflow-decision-forests 1.12.0 requires tf-keras~=2.19, which is not installed"
    )
    assert (finding.severity, finding.cause) == (Severity.WARNING, "companion-mismatch")
    assert finding.fix is not None
    assert finding.fix.commands == (f'{PIP} install "tf-keras~=2.19,<2.20,>=2.19"',)


def test_a_companion_admitting_the_installed_tensorflow_is_quiet() -> None:
    facts = tf221(companion("tensorflow-text", "2.21.0"), companion("tf-keras", "2.21.0"))
    assert pins(facts) == []


#: What tensorflow-probability declares (setup.py at v0.25.0): TensorFlow only behind its own
#: `tf` extra, which no installation of TensorFlow selects.
TFP_EXTRA = ('tensorflow>=2.16; extra == "tf"', 'tf-keras>=2.16; extra == "tf"')


def tf(version: str, metadata: str, *extra: PackageFacts) -> Facts:
    """TensorFlow ``version`` declaring what the real wheel ``metadata`` declares, and ``extra``."""
    pkg = f.pkg("tensorflow", version, *declared("tensorflow", metadata), top_level=("tensorflow",))
    return f.facts(packages=(pkg, *extra), tensorflow=f.tensorflow(version=version))


@pytest.mark.parametrize(
    ("facts", "summary", "why", "install"),
    [
        pytest.param(
            lambda: tf221(companion("tensorflow-text", "2.20.0")),
            "tensorflow-text 2.20.0 requires tensorflow<2.21,>=2.20.0, but tensorflow 2.21.0 "
            "is installed",
            "undefined symbol",
            "tensorflow-text==2.21.*",
            id="declared-in-its-metadata",
        ),
        # tensorflow-probability 0.25 fails to import below TensorFlow 2.18 (its
        # required_tensorflow_version); its metadata says nothing pip check reads.
        pytest.param(
            lambda: tf(
                "2.16.2",
                "2.16.2-linux",
                f.pkg("tensorflow-probability", "0.25.0", *TFP_EXTRA),
                f.pkg("tf-keras", "2.16.0", "tensorflow<2.17,>=2.16"),
            ),
            "tensorflow-probability 0.25.0 requires tensorflow>=2.18, but tensorflow 2.16.2 "
            "is installed",
            "github.com/tensorflow/probability",
            "tensorflow-probability==0.24.*",
            id="declared-nowhere-judged-by-the-table-row-of-its-release",
        ),
    ],
)
def test_a_companion_of_another_tensorflow_is_an_error_fixed_by_its_release_for_this_one(
    facts: Callable[[], Facts], summary: str, why: str, install: str
) -> None:
    before = facts()
    (finding,) = pins(before)
    assert (finding.severity, finding.cause) == (Severity.ERROR, "companion-mismatch")
    assert finding.summary == summary
    assert why in finding.detail
    assert finding.fix is not None
    assert finding.fix.commands == (f'{PIP} install "{install}"',)
    assert pins(fixed(before, finding)) == []


@pytest.mark.parametrize(
    ("env", "found"),
    [
        pytest.param({}, ["tf-keras-missing"], id="imported-by-the-companion"),
        # TF_USE_LEGACY_KERAS set: the tf-keras check reports it, once.
        pytest.param({"TF_USE_LEGACY_KERAS": "1"}, ["tf-keras-missing"], id="legacy-keras-set"),
    ],
)
def test_a_companion_importing_tf_keras_it_does_not_declare_is_one_tf_keras_finding(
    env: dict[str, str], found: list[str]
) -> None:
    # tensorflow-probability 0.25 imports tf_keras; only its `tf` extra requires tf-keras.
    facts = tf221(f.pkg("tensorflow-probability", "0.25.0", *TFP_EXTRA), env=env)
    findings = pins(facts)
    assert causes(findings) == found
    fix = findings[0].fix
    assert fix is not None and any('"tf-keras<2.22,>=2.21"' in c for c in fix.commands)
    after = f.apply_pip(facts, fix.commands, add_missing=True)
    assert after is not None and pins(after) == []


def test_a_companion_whose_patches_pin_different_tensorflow_releases_gets_the_one_for_it() -> None:
    # tensorflow-decision-forests 1.12.0 declares tensorflow==2.19.0; under 2.17.0 the release
    # for it is 1.10.0 (==2.17.0), not 1.10.1 (==2.17.1), so the fix names the release.
    facts = tf("2.17.0", "2.19.1-linux", companion("tensorflow-decision-forests", "1.12.0"))
    (finding,) = pins(facts)
    assert "requires tensorflow==2.19.0" in finding.summary
    assert finding.fix is not None
    assert finding.fix.commands == (f'{PIP} install "tensorflow-decision-forests==1.10.0"',)
    # What 1.10.0 declares (configure/setup.py at its tag): TensorFlow 2.17.0, tf_keras~=2.17.
    tfdf_1100 = ("tensorflow==2.17.0", "tf_keras~=2.17")
    metadata = {"tensorflow-decision-forests==1.10.0": tfdf_1100}
    after = f.apply_pip(facts, finding.fix.commands, metadata=metadata)
    assert after is not None
    assert not [x for x in pins(after) if "requires tensorflow" in x.summary]


def test_the_other_release_of_the_same_line_is_still_the_companion_that_moves() -> None:
    # 1.10.1 pins tensorflow==2.17.1 (its setup.py); under 2.17.0 the fix is 1.10.0, not
    # TensorFlow moved up for the installed patch.
    tfdf = f.pkg("tensorflow-decision-forests", "1.10.1", "tensorflow==2.17.1", "tf_keras~=2.17")
    (finding,) = pins(tf("2.17.0", "2.19.1-linux", tfdf, f.pkg("tf-keras", "2.17.0")))
    assert finding.fix is not None
    assert finding.fix.commands == (f'{PIP} install "tensorflow-decision-forests==1.10.0"',)


def test_several_companions_each_get_their_own_fix_and_none_downgrades_tensorflow_unsaid() -> None:
    facts = tf221(
        companion("tensorflow-text", "2.20.0"),
        companion("tensorflow-io", "0.37.1"),
        companion("tensorflow-addons", "0.23.0"),
        f.pkg("tensorflow-probability", "0.25.0", *TFP_EXTRA),
        companion("tf-keras", "2.21.0"),
    )
    found = {x.summary.split(" ")[0]: x for x in pins(facts)}
    assert set(found) == {"tensorflow-text", "tensorflow-io", "tensorflow-addons"}
    assert {x.cause for x in found.values()} == {"companion-mismatch"}
    text_fix, io_fix, addons_fix = (
        found[n].fix for n in ("tensorflow-text", "tensorflow-io", "tensorflow-addons")
    )
    assert text_fix is not None and io_fix is not None and addons_fix is not None
    assert text_fix.commands == (f'{PIP} install "tensorflow-text==2.21.*"',)
    assert pins(fixed(facts, found["tensorflow-text"])) == [
        found["tensorflow-io"],
        found["tensorflow-addons"],
    ]
    # The end-of-life add-on says so first; every fix moving TensorFlow says it downgrades it.
    assert addons_fix.text.startswith("TensorFlow Addons reached its end of life")
    for fix in (io_fix, addons_fix):
        assert any('"tensorflow<' in c for c in fix.commands), fix.commands
        assert "downgrades TensorFlow from 2.21.0" in fix.text


# --- TensorBoard, no longer required --------------------------------------------------------------


def test_tensorboard_absent_where_tensorflow_no_longer_requires_it_is_a_note() -> None:
    facts = tf221()
    facts = dataclasses.replace(
        facts, packages=tuple(p for p in facts.packages or () if p.name != "tensorboard")
    )
    (finding,) = pins(facts)
    assert (finding.severity, finding.cause) == (Severity.INFO, "tensorboard-not-installed")
    assert "tf.summary.scalar" in finding.detail
    assert finding.fix is not None
    assert finding.fix.commands == (f'{PIP} install "tensorboard"',)


def test_tensorboard_absent_where_tensorflow_requires_it_is_no_note() -> None:
    # TensorFlow 2.15 requires it: the probe's missing list and dependency-missing judge it.
    facts = f.facts()
    assert "tensorboard-not-installed" not in causes(pins(facts))


# --- the companion table ------------------------------------------------------------------------


def companion_faults(comp: Companion, sources: Iterable[str]) -> list[str]:
    """What is wrong with a companion's rows: a source the table does not define, a range no
    TensorFlow is inside, a TensorFlow inside a row's range that gets no release declaring it,
    or an older one (two releases of one line: the newest)."""
    defined = set(sources)
    faults = [f"{comp.name}: source {s}" for s in comp.sources if s not in defined]
    for i, row in enumerate(comp.releases):
        faults += [
            f"{comp.name} {row.release}: source {s}" for s in row.sources if s not in defined
        ]
        inside = f.satisfying(row.tensorflow)
        fit = comp.release_for(inside) if inside is not None else None
        if inside is None:
            faults.append(f"{comp.name} {row.release}: no TensorFlow inside {row.tensorflow!r}")
        elif fit is None or not fit.admits(inside) or comp.releases.index(fit) < i:
            faults.append(f"{comp.name} {row.release}: TensorFlow {inside} gets {fit}")
    return faults


def test_the_shipped_companion_table_gives_each_release_for_the_tensorflow_it_declares() -> None:
    table = load_companions()
    assert {"tensorflow-text", "tensorflow-io", "tensorflow-addons"} <= set(table.companions)
    assert [x for c in table.companions.values() for x in companion_faults(c, table.sources)] == []
    # Planted: a row citing a source the table lacks, a row whose range nothing is inside.
    comp = table.companions["tensorflow-text"]
    row = comp.releases[-1]
    ghost = dataclasses.replace(
        comp, releases=(*comp.releases[:-1], dataclasses.replace(row, sources=("ghost",)))
    )
    assert companion_faults(ghost, table.sources) == [
        f"tensorflow-text {row.release}: source ghost"
    ]
    empty = dataclasses.replace(row, tensorflow="<2.0,>=3.0")
    nothing = dataclasses.replace(comp, releases=(*comp.releases[:-1], empty))
    assert companion_faults(nothing, table.sources) == [
        f"tensorflow-text {row.release}: no TensorFlow inside '<2.0,>=3.0'"
    ]


@pytest.mark.parametrize("name", ["tensorflow-io", "tensorflow-io-gcs-filesystem"])
def test_tensorflow_io_0_37_allows_python_3_12_from_its_second_patch(name: str) -> None:
    # setup.py's python_requires: '>=3.7, <3.12' at v0.37.0, '>=3.7, <3.13' at v0.37.1.
    comp = load_companions().companions[name]
    first, second = comp.row_of("0.37.0"), comp.row_of("0.37.1")
    assert first is not None and second is not None
    assert (first.runs_on("3.11.9"), first.runs_on("3.12.4")) == (True, False)
    assert second.runs_on("3.12.4")
    fit = comp.release_for("2.16.2", "3.12.4")
    assert fit is not None and fit.requirement(name) == f"{name}==0.37.1"


def test_tensorflow_text_for_2_8_is_the_patch_that_pairs_apple_silicon_with_2_8() -> None:
    # setup.py at v2.8.0 and v2.8.1 requires tensorflow-macos<2.8.0 on arm64 Darwin beside
    # tensorflow 2.8; v2.8.2 requires tensorflow-macos 2.8 there: the fix names 2.8.2.
    comp = load_companions().companions["tensorflow-text"]
    fit = comp.release_for("2.8.4")
    assert fit is not None and fit.requirement(comp.name) == "tensorflow-text==2.8.2"
    old = comp.row_of("2.8.1")
    assert old is not None and "tensorflow-macos<2.8.0" in old.note
    assert comp.row_of("2.8.2") is not None and not comp.row_of("2.8.2").note  # type: ignore[union-attr]


def test_a_companion_row_names_a_line_or_one_release() -> None:
    text = (
        "schema_version: 1\n"
        "sources:\n  - {id: s, title: t, url: 'https://example.org'}\n"
        "companions:\n"
        "  - name: x\n    source: s\n    releases:\n"
        "      - {release: '1.9', tensorflow: '~=2.16.1', source: s}\n"
        "      - {release: '1.10.1', tensorflow: '==2.17.1', python: '>=3.9', source: s}\n"
    )
    comp = parse_companions(text, "c.yaml").companions["x"]
    assert [r.requirement("x") for r in comp.releases] == ["x==1.9.*", "x==1.10.1"]
    assert comp.releases[1].python == ">=3.9" and comp.releases[1].sources == ("s",)
    with pytest.raises(MatrixError, match="release"):
        parse_companions(text.replace("'1.10.1'", "'1.10.x'"), "c.yaml")


def test_a_companion_row_without_its_own_source_is_refused() -> None:
    # The companion's list of sources is no source for a row: each row names what it was
    # copied from, so that a pairing nobody read cannot enter the table.
    text = (
        "schema_version: 1\n"
        "sources:\n  - {id: s, title: t, url: 'https://example.org'}\n"
        "companions:\n"
        "  - name: x\n    source: s\n    releases:\n"
        "      - {release: '0.7.5', tensorflow: '<2.17,>=2.16', source: s}\n"
        "      - {release: '0.7.6', tensorflow: '<2.19,>=2.18'}\n"
    )
    with pytest.raises(MatrixError, match=r"releases\[1\]"):
        parse_companions(text, "c.yaml")
    shipped = load_companions()
    rows = [
        (c.name, r.release, r.sources)
        for c in (*shipped.companions.values(), *shipped.built_on.values())
        for r in c.releases
    ]
    assert rows and all(sources for _, _, sources in rows)


def test_a_companion_table_with_unsorted_releases_is_refused() -> None:
    text = (
        "schema_version: 1\n"
        "sources:\n  - {id: s, title: t, url: 'https://example.org'}\n"
        "companions:\n"
        "  - name: x\n    source: s\n    releases:\n"
        "      - {release: '2.21', tensorflow: '<2.22', source: s}\n"
        "      - {release: '2.20', tensorflow: '<2.21', source: s}\n"
    )
    with pytest.raises(MatrixError, match="sorted oldest first"):
        parse_companions(text, "c.yaml")


def test_a_companion_release_without_a_wheel_for_the_python_is_not_the_one_for_it() -> None:
    text = (
        "schema_version: 1\n"
        "sources:\n  - {id: s, title: t, url: 'https://example.org'}\n"
        "companions:\n"
        "  - name: x\n    source: s\n    follows_tensorflow: true\n    releases:\n"
        "      - {release: '0.1', tensorflow: '<2.17,>=2.16', python: '<3.12', source: s}\n"
        "      - {release: '0.2', tensorflow: '<2.17,>=2.16', python: '<3.11', source: s}\n"
    )
    comp = parse_companions(text, "c.yaml").companions["x"]
    assert [comp.release_for("2.16.2", p) for p in (None, "3.10.4", "3.11.9")] == [
        comp.releases[1],
        comp.releases[1],
        comp.releases[0],
    ]
    # Released for that TensorFlow, but for no such Python: none, not a guessed line.
    assert comp.release_for("2.16.2", "3.12.1") is None
    assert comp.release_for("2.17.0", "3.12.1") is not None  # no row: the line it follows


def test_the_companion_of_a_newer_line_moves_to_the_installed_tensorflows_line() -> None:
    # TensorFlow 2.20 with tensorflow-text 2.21: the companion moves back, not TensorFlow up.
    tf = f.pkg("tensorflow", "2.20.0", "tensorboard~=2.20.0", top_level=("tensorflow",))
    facts = f.facts(
        packages=(tf, f.pkg("numpy", "2.1.3"), companion("tensorflow-text", "2.21.0")),
        tensorflow=f.tensorflow(version="2.20.0"),
    )
    (finding,) = pins(facts)
    assert finding.fix is not None
    assert finding.fix.commands == (f'{PIP} install "tensorflow-text==2.20.*"',)


def tf200(addons: PackageFacts, tf_version: str = "2.0.0") -> Facts:
    """A TensorFlow 2.0-era machine (Python 3.7) with ``addons`` installed beside it."""
    tf = f.pkg("tensorflow", tf_version, "numpy<2.0,>=1.16.0", top_level=("tensorflow",))
    return f.facts(
        python=f.python(version="3.7.9"),
        packages=(tf, f.pkg("numpy", "1.17.4"), addons),
        tensorflow=f.tensorflow(version=tf_version, cuda_version="10.0", cudnn_version="7"),
    )


def mismatches(tmp_path: Path, facts: Facts) -> list[dict[str, Any]]:
    """The companion-mismatch findings of ``check --facts`` on ``facts``, in a real process."""
    out = tfdoctor("check", "packages.pins", "--facts", str(write_facts(tmp_path, facts)), "--json")
    assert "Traceback" not in out.stderr, out.stderr
    return [x for x in json.loads(out.stdout)["findings"] if x["cause"] == "companion-mismatch"]


@pytest.mark.parametrize(
    ("addons", "tf_version", "release"),
    [
        # 0.10.0 declares only typeguard; its import warns outside 2.2.0 <= TF < 2.3.0. The
        # release for 2.0.0 is 0.6 (its setup.py at the release: tensorflow == 2.0.0).
        pytest.param(f.pkg("tensorflow-addons", "0.10.0", "typeguard>=2.7"), "2.0.0", "0.6"),
        pytest.param(f.pkg("tensorflow-addons", "0.12.0", "typeguard>=2.7"), "2.0.0", "0.6"),
        # 0.5.0 declares only six and was built against 2.0.0-rc0; 0.4.0 against 2.0.0b1.
        pytest.param(f.pkg("tensorflow-addons", "0.5.0", "six>=1.10.0"), "2.0.0b1", "0.4.0"),
    ],
)
def test_an_old_addons_release_under_another_tensorflow_is_fixed_by_the_release_for_it(
    tmp_path: Path, addons: PackageFacts, tf_version: str, release: str
) -> None:
    (finding,) = mismatches(tmp_path, tf200(addons, tf_version))
    assert finding["summary"].startswith(f"tensorflow-addons {addons.version} requires tensorflow")
    fix = finding["fix"]
    assert fix["text"].startswith(f"Install tensorflow-addons {release}, the release for")
    # A row of one release installs that release; a line's row, any release of the line.
    wanted = f"=={release}" if release.count(".") == 2 else f"=={release}.*"
    assert fix["commands"] == [f'{PIP} install "tensorflow-addons{wanted}"']


@pytest.mark.parametrize(
    ("addons", "tf_version"),
    [
        pytest.param(f.pkg("tensorflow-addons", "0.10.0", "typeguard>=2.7"), "2.2.0"),
        # 0.11.0 warns outside 2.2.0 <= TF < 2.3.0, but was built with 2.3.0 (0.11.1 fixed
        # the bound): the row says so, and 2.3.0 is its own TensorFlow.
        pytest.param(f.pkg("tensorflow-addons", "0.11.0", "typeguard>=2.7"), "2.3.0"),
        pytest.param(f.pkg("tensorflow-addons", "0.5.1", "six>=1.10.0"), "2.0.0rc1"),
    ],
)
def test_an_old_addons_release_beside_the_tensorflow_it_was_built_for_is_quiet(
    tmp_path: Path, addons: PackageFacts, tf_version: str
) -> None:
    assert mismatches(tmp_path, tf200(addons, tf_version)) == []


# --- the probe lists what the family requires ---------------------------------------------------


def test_the_probe_lists_what_tensorflow_requires_and_nothing_unrelated(tmp_path: Path) -> None:
    env = make_env(tmp_path)
    env.install("pandas", "2.2.3", requires=("numpy>=1.23.2",))  # requires the family, unasked
    facts = probe_pyenv(env.python)
    names = {normalize_name(p.name) for p in facts.packages or ()}
    # Not in the family by name, but TensorFlow 2.21 requires them (its Requires-Dist).
    assert {"google-pasta", "libclang", "requests", "setuptools"} <= names
    assert "pandas" not in names


# --- never less than pip check ----------------------------------------------------------------

_PIP_CONFLICT = re.compile(
    r"^(?P<who>\S+) \S+ (?:requires (?P<missing>[A-Za-z0-9._-]+)|has requirement "
    r"(?P<req>[A-Za-z0-9._-]+))"
)


def pip_check(env: FakeEnv, tmp_path: Path) -> set[tuple[str, str]]:
    """What the real ``pip check`` of ``env`` names: (requirer, requirement) pairs.

    The venv has no pip of its own: pip's package is put on its path from a directory holding
    nothing else, so that pip's own distribution is not among those it judges.
    """
    pip_dir = Path(
        subprocess.check_output(
            [sys.executable, "-c", "import pip; print(pip.__path__[0])"], text=True
        ).strip()
    )
    shelf = tmp_path / "pip-only"
    shelf.mkdir()
    (shelf / "pip").symlink_to(pip_dir, target_is_directory=True)
    run_env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "PYTHON"))}
    run_env["PYTHONPATH"] = str(shelf)
    done = subprocess.run(
        [env.python, "-m", "pip", "check"],
        capture_output=True,
        text=True,
        env=run_env,
        timeout=60,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    pairs: set[tuple[str, str]] = set()
    for line in done.stdout.splitlines():
        match = _PIP_CONFLICT.match(line)
        if match is not None:
            dep = match.group("missing") or match.group("req")
            pairs.add((normalize_name(match.group("who")), normalize_name(dep)))
    return pairs


def doctor_pairs(report: dict[str, Any]) -> set[tuple[str, str]]:
    """(requirer, requirement) pairs the doctor's packages.pins findings name."""
    pairs: set[tuple[str, str]] = set()
    for x in found(report, "packages.pins"):
        summary = x["summary"]
        if x["cause"] == "dependency-missing":
            names = summary.split(": ", 1)[1].split(", ")
            pairs.update(("tensorflow", normalize_name(n)) for n in names)
        elif x["cause"] == "companion-mismatch":
            who, rest = summary.split(" ", 1)
            target = re.match(r"\S+ requires ([A-Za-z0-9._-]+?)[<>=!~]", rest)
            assert target is not None, summary
            pairs.add((normalize_name(who), normalize_name(target.group(1))))
        elif x["cause"] == "tf-keras-mismatch":
            pairs.add(("tf-keras", "tensorflow"))
        elif "is outside TensorFlow" in summary:
            pairs.add(("tensorflow", normalize_name(summary.split(" ", 1)[0])))
    return pairs


def test_the_doctor_names_every_conflict_pip_check_names_and_more(tmp_path: Path) -> None:
    pytest.importorskip("pip")
    env = make_env(tmp_path)
    env.install("h5py", "3.16.0")  # TensorFlow: h5py<3.15.0
    env.install("protobuf", "5.29.0")  # TensorFlow: protobuf<8.0.0,>=6.31.1
    env.remove("grpcio")  # required, imported when used
    env.remove("google-pasta")  # required, read by no list of the doctor's
    env.install("tensorflow-text", "2.20.0", requires=declared("tensorflow_text", "2.20.0"))
    env.install("tf-keras", "2.20.1", requires=declared("tf_keras", "2.20.1"))
    # Declared behind its `tensorflow` extra: pip check does not read it, the doctor does.
    env.install("tensorflow-io", "0.37.1", requires=declared("tensorflow_io", "0.37.1"))
    env.install("tensorflow-io-gcs-filesystem", "0.37.1")
    # Requires tensorflow==2.19.0 and tf_keras~=2.19 (which tf-keras 2.20.1 satisfies), and
    # pandas, ydf ...: what it requires besides TensorFlow and Keras is not the doctor's.
    env.install(
        "tensorflow-decision-forests",
        "1.12.0",
        requires=declared("tensorflow_decision_forests", "1.12.0"),
    )
    family = {"tensorflow", "tf-keras", "keras"}
    pip_says = {
        (who, dep) for who, dep in pip_check(env, tmp_path) if who == "tensorflow" or dep in family
    }
    assert {
        ("tensorflow", "h5py"),
        ("tensorflow", "grpcio"),
        ("tensorflow-text", "tensorflow"),
        ("tensorflow-decision-forests", "tensorflow"),
    } <= pip_says
    _, report = check(env, "--static", cwd=tmp_path)
    doctor_says = doctor_pairs(report)
    assert pip_says <= doctor_says, pip_says - doctor_says
    assert ("tensorflow-io", "tensorflow") in doctor_says - pip_says
    for x in found(report, "packages.pins"):
        assert x["fix"] and x["fix"]["commands"], x


def test_a_companion_for_a_pre_release_tensorflow_is_asked_for_as_one() -> None:
    # tensorflow-text follows TensorFlow's versions (its README); under 2.22.0rc0 only its own
    # pre-release fits, which `tensorflow-text==2.22.*` would never install (PEP 440).
    from tfdoctor import causes
    from tfdoctor.facts import PackageFacts
    from tfdoctor.machine import Machine

    text = PackageFacts("tensorflow-text", "2.21.0", "")
    facts = f.facts(packages=(PackageFacts("tensorflow", "2.22.0rc0", ""), text))
    fix = causes.software.companion_fix(
        Machine(facts, None), "tensorflow-text", text, "tensorflow", "<2.22"
    )
    assert any('"tensorflow-text>=2.22.0rc0,<2.23' in c for c in fix.commands), fix.commands


@pytest.mark.parametrize(
    ("distribution", "flag"),
    [("tensorflow", ""), ("tensorflow-cpu", "--no-deps ")],
)
def test_a_companion_requiring_tensorflow_by_name_installs_beside_tensorflow_cpu_alone(
    distribution: str, flag: str
) -> None:
    # tensorflow-text requires `tensorflow` by name: beside tensorflow-cpu, pip would install
    # a second TensorFlow distribution unless told to install the companion alone.
    facts = tf221(companion("tensorflow-text", "2.20.0"))
    assert facts.packages is not None
    renamed = tuple(
        dataclasses.replace(p, name=distribution) if p.name == "tensorflow" else p
        for p in facts.packages
    )
    (finding,) = pins(dataclasses.replace(facts, packages=renamed))
    assert finding.fix is not None
    assert finding.fix.commands == (f'{PIP} install {flag}"tensorflow-text==2.21.*"',)


def test_the_companions_requiring_only_tensorflow_are_the_tables() -> None:
    table = load_companions()
    assert set(table.only_tensorflow) == {"tf-keras", "tensorflow-text"}
    for ids in table.only_tensorflow.values():
        assert ids and all(table.sources[i].url.startswith("https://") for i in ids)
    text = DEFAULT_COMPANIONS.read_text(encoding="utf-8")
    row = "  - name: tensorflow-text\n    source: tensorflow-text-metadata\n"
    assert text.count(row) == 1
    with pytest.raises(MatrixError, match="duplicate package"):
        parse_companions(text.replace(row, row + row), "c.yaml")
    with pytest.raises(MatrixError, match="nowhere"):
        parse_companions(text.replace(row, row.replace("tensorflow-text-metadata", "nowhere")))
    # The fix reads the table: without its row, tensorflow-text installs with what it requires.
    cpu = tuple(
        dataclasses.replace(p, name="tensorflow-cpu") if p.name == "tensorflow" else p
        for p in tf221().packages or ()
    )
    machine = Machine(dataclasses.replace(tf221(), packages=cpu), None)
    assert companion_install(machine, "tensorflow-text==2.21.*")[0].startswith(
        f'{PIP} install --no-deps "'
    )
    vars(machine)["companion_table"] = parse_companions(text.replace(row, ""), "c.yaml")
    assert companion_install(machine, "tensorflow-text==2.21.*") == (
        f'{PIP} install "tensorflow-text==2.21.*"',
    )


def test_a_companion_tensorflow_requires_and_admits_is_a_note_not_an_error() -> None:
    # pip's own choice under TensorFlow 2.15: tensorflow-io-gcs-filesystem 0.37.1, inside
    # TensorFlow's `>=0.23.1`, though its `tensorflow` extra names 2.16.
    tf = f.pkg(
        "tensorflow",
        "2.15.1",
        *f.TF_REQUIRES,
        'tensorflow-io-gcs-filesystem>=0.23.1; platform_machine != "arm64"',
        top_level=("tensorflow",),
    )
    gcs = f.pkg(
        "tensorflow-io-gcs-filesystem",
        "0.37.1",
        'tensorflow<2.17.0,>=2.16.0; extra == "tensorflow"',
    )
    facts = f.facts(
        packages=(tf, f.pkg("numpy", "1.26.4"), gcs),
        tensorflow=f.tensorflow(version="2.15.1"),
    )
    (finding,) = [x for x in pins(facts) if x.cause == "companion-mismatch"]
    assert finding.severity is Severity.INFO
    assert "admits 0.37.1" in finding.detail
    # Outside TensorFlow's own range it stays an error.
    older = dataclasses.replace(tf, requires=(*f.TF_REQUIRES, "tensorflow-io-gcs-filesystem>=0.38"))
    facts = dataclasses.replace(facts, packages=(older, f.pkg("numpy", "1.26.4"), gcs))
    assert [x.severity for x in pins(facts) if x.cause == "companion-mismatch"] == [Severity.ERROR]


def test_a_keras_declaring_another_tensorflow_is_a_keras_of_another_release() -> None:
    # keras 2.4.0's wheel declares tensorflow>=2.2.0 (pip quotes it): under TensorFlow 2.0 it
    # is the Keras of another release, not a companion.
    facts = f.facts(
        python=f.python(version="3.7.9"),
        packages=(
            f.pkg("tensorflow", "2.0.0", "numpy<2.0,>=1.16.0"),
            f.pkg("keras", "2.4.0", "tensorflow>=2.2.0", "numpy>=1.9.1"),
            f.pkg("numpy", "1.18.5"),
        ),
        tensorflow=f.tensorflow(version="2.0.0"),
    )
    (finding,) = [x for x in pins(facts) if x.cause in ("keras-version", "companion-mismatch")]
    assert finding.cause == "keras-version"
