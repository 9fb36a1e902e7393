"""``tfdoctor scan``: each test file's expected findings, line by line; none on clean code."""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

import pytest

from tfdoctor.findings import Severity
from tfdoctor.matrix import load_matrix
from tfdoctor.scan import (
    ScanError,
    ScanOptions,
    collect_files,
    judge_files,
    scan,
    scan_files,
    walker,
)
from tfdoctor.scan.api import api_for, bundled_lines, load_api
from tfdoctor.scan.knowledge import ApiKnowledge, public_name
from tfdoctor.scan.rules import Rule, load_rules
from tfdoctor.scan.walker import notebook_cells, scan_source

DATA = Path(__file__).resolve().parent / "data" / "scan"
EXPECT = re.compile(r"#\s*expect:\s*(.+)$")
RULES = load_rules()

FILES = sorted(p.name for p in DATA.iterdir() if p.suffix in (".py", ".ipynb"))
CLEAN = [name for name in FILES if name.startswith(("clean_", "compat_v1_"))]


def expected(path: Path) -> set[tuple[int, int, str]]:
    """(cell or 0, line, finding id) from the ``# expect: id, id`` comments of a test file."""
    text = path.read_text(encoding="utf-8")
    parts = notebook_cells(text) if path.suffix == ".ipynb" else [(0, text)]
    out: set[tuple[int, int, str]] = set()
    for cell, source in parts:
        for number, line in enumerate(source.splitlines(), start=1):
            match = EXPECT.search(line)
            if match:
                out.update((cell, number, i.strip()) for i in match.group(1).split(","))
    return out


def found(paths: list[str], target: str = "2.21", **options: object) -> set[tuple[int, int, str]]:
    report = scan(ScanOptions(tuple(paths), target, **options), RULES, "test")  # type: ignore[arg-type]
    out = set()
    for f in report.findings:
        assert f.location is not None
        out.add((f.location.cell or 0, f.location.line, f.id))
    return out


@pytest.mark.parametrize("name", FILES)
def test_findings_match_the_expectations_line_by_line(name: str) -> None:
    path = DATA / name
    assert found([str(path)]) == expected(path)


@pytest.mark.parametrize("name", CLEAN)
def test_modern_code_has_no_finding(name: str) -> None:
    assert expected(DATA / name) == set()
    assert found([str(DATA / name)]) == set()


def uncovered_causes(expected_ids: Iterable[str], rules: Sequence[Rule]) -> list[str]:
    """Causes a breaking rule reports that no test file expects a finding of. (Rules of
    changed defaults show only in an upgrade plan, and rules that end at a line (``until``)
    only on older targets: both are tested below.)"""
    ids = set(expected_ids)
    covered = {r.cause for r in rules if f"scan.{r.id}" in ids}
    return sorted({r.cause for r in rules if r.kind == "removed" and not r.until} - covered)


#: What the API listings find beside the rules: a name moved to tf.compat.v1, a Keras name
#: Keras 3 lacks.
LISTING_IDS = {"scan.api-moved-to-compat-v1", "scan.keras3-behaviour-change"}


def test_the_test_files_cover_every_kind_of_breakage() -> None:
    ids = {finding_id for name in FILES for _, _, finding_id in expected(DATA / name)}
    assert uncovered_causes(ids, RULES.rules) == []
    assert LISTING_IDS - ids == set()
    # Planted: the test files' tf.contrib uses gone.
    assert uncovered_causes(ids - {"scan.tf-contrib"}, RULES.rules) == ["tf-contrib-removed"]


def _by_id(path: Path, finding_id: str, target: str = "2.21") -> list:  # type: ignore[type-arg]
    report = scan(ScanOptions((str(path),), target), RULES, "test")
    return [f for f in report.findings if f.id == finding_id]


def test_fix_names_the_idiom_and_the_compat_v1_stop_gap() -> None:
    (session, *_) = _by_id(DATA / "tf1_mnist_graph.py", "scan.tf1-session")
    assert session.severity is Severity.ERROR
    assert session.cause == "api-moved-to-compat-v1"
    assert "tf.function" in session.fix.text
    assert "tf.compat.v1.Session" in session.fix.text
    (moved,) = _by_id(DATA / "tf1_mnist_graph.py", "scan.api-moved-to-compat-v1")
    # The TensorFlow 2 name of the same object, from the wheel's API files.
    assert "tf.random.normal" in moved.fix.text
    assert "tf.compat.v1.random_normal" in moved.fix.text


def test_keras2_fix_offers_tf_keras_with_the_legacy_switch() -> None:
    (legacy, *_) = _by_id(DATA / "keras2_transfer_learning.ipynb", "scan.keras3-legacy-optimizers")
    assert "tf.keras.optimizers.Adam" in legacy.fix.text
    # The catalogue's fix for the target line, as `check` gives it: tf-keras as the matrix
    # pins it for 2.21 (from tf-keras' own metadata).
    assert legacy.fix.commands == (
        'pip install "tf-keras<2.22,>=2.21"',
        "export TF_USE_LEGACY_KERAS=1",
    )
    (tb,) = _by_id(DATA / "keras2_train.py", "scan.tensorboard-callback")
    assert tb.fix.commands == ("pip install tensorboard",)
    assert tb.cause == "tensorboard-not-installed"
    (backend,) = [
        f
        for f in _by_id(DATA / "keras2_train.py", "scan.keras3-behaviour-change")
        if "int_shape" in f.summary
    ]
    assert "Keras 3" in backend.detail


def test_target_before_keras3_reports_only_the_tensorflow_1_uses() -> None:
    ids = {i for _, _, i in found([str(DATA)], target="2.15")}
    assert "scan.tf1-session" in ids
    assert not {i for i in ids if "keras3" in i or "tensorboard" in i or "estimator" in i}


def test_tensorflows_private_keras_copy_is_judged_by_the_keras_beside_it(tmp_path: Path) -> None:
    # The copy stayed in the wheels (importing works); what breaks is mixing it with tf.keras:
    # the keras package serves tf.keras from 2.6 (a warning), Keras 3 from 2.16 (an error).
    # Before 2.6 it is private use like any tensorflow.python module.
    code = tmp_path / "private.py"
    code.write_text("from tensorflow.python.keras.layers import Dense\n")
    assert found([str(code)], target="2.5") == {(0, 1, "scan.tf-private-module")}
    assert found([str(code)], target="2.10") == {(0, 1, "scan.tf-python-keras")}
    assert found([str(code)], target="2.16") == {(0, 1, "scan.tf-python-keras-keras3")}
    (warning,) = _by_id(code, "scan.tf-python-keras", target="2.10")
    assert warning.severity == Severity.WARNING and "tensorflow.keras" in warning.fix.text


def test_from_reports_only_what_changes_between_the_two_lines() -> None:
    ids = {i for _, _, i in found([str(DATA)], target="2.21", since="2.15")}
    assert "scan.tf-estimator" in ids and "scan.keras3-legacy-optimizers" in ids
    assert "scan.tensorboard-callback" in ids
    assert not {i for i in ids if i.startswith("scan.tf1-") or "compat-v1" in i}


def test_changed_defaults_show_in_an_upgrade_plan_only(tmp_path: Path) -> None:
    code = tmp_path / "opt.py"
    code.write_text("import tensorflow as tf\nopt = tf.keras.optimizers.Adam(1e-3)\n")
    assert found([str(code)], target="2.11") == set()
    assert found([str(code)], target="2.11", since="2.10") == {
        (0, 2, "scan.keras-optimizers-new-implementation")
    }


def test_installed_tensorboard_silences_its_rules() -> None:
    path = str(DATA / "keras2_train.py")
    with_tb = found([path], installed=frozenset({"tensorflow", "tensorboard"}))
    assert not {i for _, _, i in with_tb if "tensorboard" in i}
    assert (0, 7, "scan.tensorboard-callback") in found([path], installed=frozenset({"keras"}))


# --- the walker ---------------------------------------------------------------------------------


def names(code: str) -> list[tuple[int, str, str]]:
    uses = scan_source(code, "x.py", methods={"save"}).uses
    return [(u.line, u.name, u.kind) for u in uses]


def test_aliases_resolve_to_qualified_names() -> None:
    code = "\n".join(
        [
            "import tensorflow as tf",
            "from tensorflow import keras",
            "from tensorflow.keras import layers as L",
            "import keras as k3",
            "from tensorflow.compat import v1",
            "a = tf.compat.v1.Session",
            "b = keras.layers.Dense",
            "c = L.Dense(3)",
            "d = k3.ops.relu",
            "e = v1.placeholder",
        ]
    )
    got = {(line, name) for line, name, _ in names(code)}
    assert {
        (6, "tf.compat.v1.Session"),
        (7, "tf.keras.layers.Dense"),
        (8, "tf.keras.layers.Dense"),
        (9, "keras.ops.relu"),
        (10, "tf.compat.v1.placeholder"),
    } <= got


def test_unrelated_code_is_not_parsed_and_other_modules_are_ignored() -> None:
    assert scan_source("import numpy as np\nnp.Session()\n", "x.py").uses == ()
    got = names("import tensorflow as tf\nimport numpy as tf2\ntf2.Session()\n")
    assert got == []


def test_reassigned_imported_names_are_the_files_own() -> None:
    code = (
        "try:\n    from keras import backend\nexcept ImportError:\n    backend = None\n"
        "backend.foo\n"
    )
    assert [n for n in names(code) if n[2] != "import"] == []


def test_columns_count_characters_not_bytes() -> None:
    uses = scan_source("import tensorflow as tf\nx = 'ünï'; tf.Session()\n", "x.py").uses
    (session,) = [u for u in uses if u.name == "tf.Session"]
    assert (session.line, session.column) == (2, 12)  # bytes would say 14


def test_notebook_magics_and_shell_lines_keep_the_line_numbers() -> None:
    doc = {
        "cells": [
            {"cell_type": "markdown", "source": ["import tensorflow as tf"]},
            {
                "cell_type": "code",
                "source": ["!pip install x\n", "%time 1\n", "import tensorflow as tf"],
            },
            {"cell_type": "code", "source": "%%bash\ntf.Session()"},
            {"cell_type": "code", "source": ["x = 1\n", "tf.Session()"]},
        ],
        "nbformat": 4,
    }
    result = scan_source(json.dumps(doc), "n.ipynb", notebook=True)
    assert [(u.cell, u.line, u.name) for u in result.uses] == [(4, 2, "tf.Session")]


def test_unparsable_file_is_reported_not_skipped(tmp_path: Path) -> None:
    bad = tmp_path / "py2.py"
    bad.write_text("import tensorflow as tf\nprint 'hello'\n")
    report = scan(ScanOptions((str(bad),), "2.21"), RULES, "test")
    (finding,) = report.findings
    assert finding.id == "scan.unreadable"
    assert finding.severity is Severity.UNKNOWN
    assert finding.location is not None and finding.location.line == 2


def test_star_import_flags_only_names_tensorflow_1_had(tmp_path: Path) -> None:
    code = tmp_path / "star.py"
    code.write_text(
        "from tensorflow import *\n"
        "def helper():\n    return 1\n"
        "x = helper() + my_global\n"
        "y = placeholder(float32)\n"
        "z = random_normal([1])\n"
    )
    assert found([str(code)]) == {
        (0, 5, "scan.tf1-placeholder"),
        (0, 6, "scan.api-moved-to-compat-v1"),
    }


def test_directories_skip_caches_and_virtual_environments(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("")
    (tmp_path / "pkg" / "notes.txt").write_text("")
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "b.py").write_text("")
    (tmp_path / "env").mkdir()
    (tmp_path / "env" / "pyvenv.cfg").write_text("")
    (tmp_path / "env" / "c.py").write_text("")
    assert collect_files([str(tmp_path)]) == [str(tmp_path / "pkg" / "a.py")]
    with pytest.raises(ScanError, match="no such file"):
        collect_files([str(tmp_path / "missing")])


def test_process_pool_gives_the_same_findings_as_one_process(tmp_path: Path) -> None:
    files = []
    for i in range(30):
        path = tmp_path / f"m{i:02}.py"
        path.write_text(f"import tensorflow as tf\n\nsess{i} = tf.Session()\n")
        files.append(str(path))
    serial = scan_files(files, ["save"], workers=1)
    pooled = scan_files(files, ["save"], workers=2)
    assert serial == pooled
    findings = judge_files(pooled, RULES, ScanOptions(tuple(files), "2.21"))
    assert len(findings) == 30


def test_scanning_never_imports_tensorflow() -> None:
    scan(ScanOptions((str(DATA),), "2.21"), RULES, "test")
    assert "tensorflow" not in sys.modules


# --- the API listings of each line ----------------------------------------------------------------

LISTED_LINES = bundled_lines()


@pytest.mark.parametrize("line", LISTED_LINES)
def test_each_bundled_listing_loads_as_its_own_line(line: str) -> None:
    api = load_api(line)
    assert api is not None and api.line == line and api_for(line) is api
    assert api.has("tf.function") and api.has("tf.keras.layers.Dense")
    assert api.renames["tf.compat.v1.random_normal"] == "tf.random.normal"


def test_a_name_added_later_is_missing_only_from_older_targets(tmp_path: Path) -> None:
    # tf.io.decode_webp first appears in 2.20.0's API files (absent from 2.16.2's to 2.19.1's
    # wheels); tf.io.decode_jxl in 2.21.0's.
    code = tmp_path / "decode.py"
    code.write_text(
        "import tensorflow as tf\n"
        "a = tf.io.decode_webp(b'')\n"
        "b = tf.io.decode_jxl(b'')\n"
        "c = tf.io.decode_png(b'')\n"
    )
    assert found([str(code)], target="2.21") == set()
    assert found([str(code)], target="2.20") == {(0, 3, "scan.api-removed")}
    assert found([str(code)], target="2.16") == {
        (0, 2, "scan.api-removed"),
        (0, 3, "scan.api-removed"),
    }
    (finding, *_) = _by_id(code, "scan.api-removed", target="2.16")
    assert "TensorFlow 2.16" in finding.summary or "TensorFlow 2.16" in finding.detail
    # Older lines have their own listings (neither name exists in 2.15); TensorFlow 1 has
    # none and is not judged; a line the matrix does not know cannot be a target at all.
    assert found([str(code)], target="2.15") == {
        (0, 2, "scan.api-removed"),
        (0, 3, "scan.api-removed"),
    }
    assert found([str(code)], target="1.15") == set()
    newest = load_matrix(env={}).lines[0]
    unknown = f"{newest.key[0]}.{newest.key[1] + 1}"
    with pytest.raises(ScanError, match=rf"--target {re.escape(unknown)}: not a TensorFlow"):
        found([str(code)], target=unknown)
    # The matrix's newest line is a target even before the API listing of its wheels exists
    # (a pre-release line): the newest listing answers for it.
    assert found([str(code)], target=newest.line) == set()


# A script written for TensorFlow 2.3: each use exists in some lines and not in others.
OLD_SCRIPT = (
    "import tensorflow as tf\n"
    "from tensorflow.keras.utils import multi_gpu_model\n"  # 2: gone from 2.4
    "policy = tf.keras.mixed_precision.experimental.Policy('mixed_float16')\n"  # 3: to 2.8
    "opt = tf.keras.optimizers.legacy.Adam()\n"  # 4: from 2.9
    "est = tf.estimator.Estimator\n"  # 5: up to 2.15
    "total = tf.keras.ops.sum\n"  # 6: Keras 3 only
    "sess = tf.Session()\n"  # 7: TensorFlow 1
    "hook = tf.data.experimental.CheckpointInputPipelineHook\n"  # 8: up to 2.15
)


@pytest.mark.parametrize(
    ("target", "lines"),
    [
        pytest.param("2.15", {2, 3, 6}, id="2.15"),
        pytest.param("2.11", {2, 3, 6}, id="2.11"),
        pytest.param("2.4", {2, 4, 6}, id="2.4"),
        pytest.param("2.3", {4, 6}, id="2.3"),
    ],
)
def test_an_older_target_is_judged_by_its_own_listing(
    tmp_path: Path, target: str, lines: set[int]
) -> None:
    # Read from the wheels: multi_gpu_model left tf.keras.utils in 2.4, the experimental
    # mixed-precision names after 2.8; optimizers.legacy arrived in 2.9, tf.estimator stayed
    # until 2.15. What exists on the target is no alarm; tf.Session is never TensorFlow 2.
    code = tmp_path / "old.py"
    code.write_text(OLD_SCRIPT)
    # multi_gpu_model and the experimental mixed-precision module have their rules (with their
    # replacements), removed from the same lines on.
    ids = {2: "scan.keras-multi-gpu-model", 3: "scan.keras29-mixed-precision-experimental"}
    expected_ids = {(0, line, ids.get(line, "scan.api-removed")) for line in lines}
    assert found([str(code)], target=target) == expected_ids | {(0, 7, "scan.tf1-session")}


def test_an_upgrade_plan_reports_what_the_upgrade_removes(tmp_path: Path) -> None:
    code = tmp_path / "old.py"
    code.write_text(OLD_SCRIPT)
    plan = found([str(code)], since="2.15", target="2.16")
    # In 2.15 and gone in 2.16: the hook (with tf.estimator, which a rule knows); the names
    # 2.15 already lacked are no news to this plan.
    assert (0, 8, "scan.api-removed") in plan
    assert (0, 5, "scan.tf-estimator") in plan
    assert not {(0, line, "scan.api-removed") for line in (2, 3, 6)} & plan
    (hook,) = [f for f in _by_id_plan(code, "2.15", "2.16") if f.location.line == 8]
    assert "2.15" in hook.detail and "removed in 2.16" in hook.detail
    # Over several lines, the line that removed it is named.
    (hook_gone,) = [f for f in _by_id_plan(code, "2.3", "2.16") if f.location.line == 8]
    assert "removed in 2.16" in hook_gone.detail
    # A rule's release is the line it names: multi_gpu_model, from 2.4.
    plan_ids = found([str(code)], since="2.3", target="2.11")
    assert (0, 2, "scan.keras-multi-gpu-model") in plan_ids
    assert (0, 2, "scan.keras-multi-gpu-model") not in found(
        [str(code)], since="2.4", target="2.11"
    )


def _by_id_plan(path: Path, since: str, target: str) -> list:  # type: ignore[type-arg]
    report = scan(ScanOptions((str(path),), target, since=since), RULES, "test")
    return [f for f in report.findings if f.id == "scan.api-removed"]


def test_standalone_keras_2_is_judged_from_the_listing_of_its_own_wheel(tmp_path: Path) -> None:
    code = tmp_path / "k.py"
    code.write_text(
        "import keras\n"
        "shape = keras.backend.int_shape\n"
        "total = keras.ops.sum\n"
        "layer = keras.engine.base_layer.Layer\n"
        "from keras.wrappers.scikit_learn import KerasClassifier\n"
    )
    # keras.ops is Keras 3's. Keras 2.13 to 2.15 generate their API files (keras/src holds
    # the code); Keras 2.6 to 2.12's public API is the tree they generate for tf.keras, and
    # their implementation's packages (keras.engine) import but are not judged.
    removed = "scan.api-removed"
    wrappers_id = "scan.keras-scikit-learn-wrappers"  # its rule names SciKeras
    assert found([str(code)], target="2.15") == {
        (0, 3, removed),
        (0, 4, removed),
        (0, 5, wrappers_id),
    }
    assert found([str(code)], target="2.12") == {(0, 3, removed)}
    (ops,) = _by_id(code, removed, target="2.12")
    assert "`keras.ops` is not in the Keras 2.12.0 of TensorFlow 2.12" in ops.detail
    # An upgrade plan reports what the upgrade removes (keras.wrappers, in Keras 2.12's API),
    # not what the older line's listing cannot tell (keras.engine).
    assert found([str(code)], since="2.12", target="2.15") == {(0, 5, wrappers_id)}
    assert found([str(code)], since="2.13", target="2.15") == set()


KERAS2_UNDER_KERAS3 = (
    "import keras\n"
    "import tensorflow as tf\n"
    "sess = tf.compat.v1.keras.backend.get_session()\n"  # 3: Keras 2 (tf-keras) only
    "x = tf.keras.layers.NotALayerAnywhere\n"  # 4: in no Keras
    "y = keras.layers.NotALayerEither\n"  # 5: in no Keras
    "policy = keras.QuantizedDTypePolicy\n"  # 6: Keras 3.2 only
    "dense = tf.compat.v1.keras.layers.Dense\n"  # 7: in Keras 3's tf.keras tree too
)


def test_a_keras_name_under_keras_3_is_judged_from_keras_3_and_tf_keras(tmp_path: Path) -> None:
    code = tmp_path / "k.py"
    code.write_text(KERAS2_UNDER_KERAS3)
    assert found([str(code)], target="2.16") == {
        (0, 3, "scan.keras3-behaviour-change"),
        (0, 4, "scan.api-removed"),
        (0, 5, "scan.api-removed"),
        (0, 6, "scan.api-removed"),
    }
    report = scan(ScanOptions((str(code),), "2.16"), RULES, "test")
    by_line = {f.location.line: f for f in report.findings if f.location is not None}
    fixes = {n: x.fix for n, x in by_line.items() if x.fix is not None}
    # Keras 2 has it: tf-keras with the legacy switch runs it.
    assert "tf-keras 2.16.0 has it" in by_line[3].detail
    assert any("tf-keras" in c for c in fixes[3].commands)
    # No Keras has it: tf-keras would change nothing, so it is not offered.
    for line in (4, 5):
        assert "neither in Keras 3.15.1 nor in Keras 2's public API" in by_line[line].detail
        assert "tf-keras" not in " ".join((fixes[line].text, *fixes[line].commands))
    # Keras 3 itself dropped it after 3.2.
    assert "up to Keras 3.2.1" in by_line[6].detail
    assert 'pip install "keras<3.3"' in fixes[6].text
    # ... a pin the target's own keras range excludes (2.21 requires Keras 3.12 on) is none.
    (late,) = [
        f
        for f in scan(ScanOptions((str(code),), "2.21"), RULES, "test").findings
        if f.location is not None and f.location.line == 6
    ]
    assert late.fix is not None
    assert "up to Keras 3.2.1" in late.detail and "keras<" not in late.fix.text
    # Before 2.16 the names are judged against Keras 2.15, which serves tf.compat.v1.keras.
    assert found([str(code)], target="2.15") == {
        (0, line, "scan.api-removed") for line in (4, 5, 6)
    }


def test_tf_keras_names_are_judged_from_the_tf_keras_of_the_target(tmp_path: Path) -> None:
    code = tmp_path / "k.py"
    code.write_text(
        "import tf_keras\n"
        "from tf_keras.src.engine import base_layer\n"  # private: not judged
        "dense = tf_keras.layers.Dense\n"
        "nope = tf_keras.layers.NopeLayer\n"
        "opt = tf_keras.optimizers.legacy.Adam\n"
    )
    assert found([str(code)], target="2.21") == {(0, 4, "scan.api-removed")}
    (nope,) = _by_id(code, "scan.api-removed", target="2.21")
    assert "`tf_keras.layers.NopeLayer` is not in the tf-keras 2.21.0 of TensorFlow 2.21" in (
        nope.detail
    )
    # 2.12 had no tf-keras: nothing to judge against.
    assert found([str(code)], target="2.12") == set()


TF1_KERAS_NAMES = (
    "import tensorflow as tf\n"
    "sess = tf.keras.backend.get_session()\n"  # 2: TensorFlow 1, in tf.compat.v1.keras to 2.15
    "net = tf.keras.applications.RegNetX002\n"  # 3: Keras 2, mirrored in tf.compat.v1.keras
)


def test_a_tf1_name_is_named_with_its_last_compat_v1_home(tmp_path: Path) -> None:
    code = tmp_path / "s.py"
    code.write_text(TF1_KERAS_NAMES)
    # Keras 3's tf.compat.v1.keras (2.16 on) has no get_session: its last home is 2.15's.
    (moved,) = _by_id(code, "scan.api-moved-to-compat-v1", target="2.21")
    assert moved.location is not None and moved.location.line == 2
    assert "tf.compat.v1 kept it only up to TensorFlow 2.15" in moved.detail
    assert moved.fix is not None
    assert (
        "stop-gap on TensorFlow 2.15 or older: tf.compat.v1.keras.backend.get_session."
        in moved.fix.text
    )
    # On 2.15 the target's own tf.compat.v1 has it.
    (kept,) = _by_id(code, "scan.api-moved-to-compat-v1", target="2.15")
    assert kept.fix is not None
    assert "stop-gap: tf.compat.v1.keras.backend.get_session." in kept.fix.text
    # A Keras 2 name is no TensorFlow 1 name, though Keras 2's tf.compat.v1.keras had it too.
    assert found([str(code)], target="2.21") == {
        (0, 2, "scan.api-moved-to-compat-v1"),
        (0, 3, "scan.keras3-behaviour-change"),
    }


def test_explain_reads_the_same_keras_listings() -> None:
    knowledge = ApiKnowledge(load_matrix())
    assert public_name("tf_keras.api._v2.keras.layers") == "tf_keras.layers"
    legacy = knowledge.name("tf.compat.v1.keras.backend.get_session")
    assert legacy is not None and legacy.cause == "keras3-behaviour-change"
    nowhere = knowledge.name("keras.layers.NotALayerEither")
    assert nowhere is not None and nowhere.cause == "api-removed"
    tf_keras = knowledge.name("tf_keras.layers.NopeLayer")
    assert tf_keras is not None and "tf-keras" in tf_keras.what


def fix_texts(code: Path, target: str = "2.21") -> dict[int, str]:
    """Each line of ``code`` with a finding, and its fix's text."""
    report = scan(ScanOptions((str(code),), target), RULES, "test")
    return {
        x.location.line: x.fix.text
        for x in report.findings
        if x.location is not None and x.fix is not None
    }


def test_a_name_spelled_otherwise_gets_the_apis_spelling(tmp_path: Path) -> None:
    code = tmp_path / "s.py"
    code.write_text(
        "import tensorflow as tf\n"
        "from keras.optimizers import adam\n"
        "x = tf.keras.layers.Conv2d(3, 3)\n"
        "y = tf.keras.layers.NoSuchLayer(3)\n"
    )
    fixes = fix_texts(code)
    assert fixes[2].startswith("Use keras.optimizers.Adam:")
    assert fixes[3].startswith("Use tf.keras.layers.Conv2D:")
    # A name no member is a spelling of gets no guess.
    assert "Use " not in fixes[4]


def test_a_keras2_module_gets_the_public_names_it_exported(tmp_path: Path) -> None:
    code = tmp_path / "m.py"
    code.write_text(
        "from keras.utils import np_utils\n"
        "from tensorflow.keras.utils import generic_utils\n"
        "from keras.layers.advanced_activations import LeakyReLU\n"
    )
    fixes = fix_texts(code)
    assert "keras.utils.to_categorical" in fixes[1] and "keras.utils.normalize" in fixes[1]
    assert "tf.keras.utils.Progbar" in fixes[2]
    # One of its names asked for: that name, where the API keeps it.
    assert fixes[3] == "Use keras.layers.LeakyReLU."


def test_a_respelling_continues_only_through_a_submodule(tmp_path: Path) -> None:
    code = tmp_path / "n.py"
    code.write_text("from keras.layers.normalization import BatchNormalization\n")
    report = scan(ScanOptions((str(code),), "2.21"), RULES, "test")
    (finding,) = [x for x in report.findings if x.location is not None]
    assert finding.fix is not None
    # keras.layers.Normalization is a class, not the module the name continues in.
    assert "Normalization.BatchNormalization" not in finding.fix.text
    assert "keras.layers.BatchNormalization" in finding.fix.text


def test_a_name_1_0_removed_gets_the_release_notes_replacement() -> None:
    by_name = {
        f.location.line if f.location else 0: f
        for f in _by_id(DATA / "tf0_renamed_before_1_0.py", "scan.api-removed")
    }
    assert "Write `tf.where` for `tf.select`" in by_name[7].fix.text
    assert "Write `tf.multiply` for `tf.mul`" in by_name[8].fix.text
    # TensorFlow 2 has no tf.summary.FileWriter: the name that runs there is tf.compat.v1's.
    assert "Write `tf.summary.FileWriter` for" not in by_name[10].fix.text
    assert (
        "Write `tf.compat.v1.summary.FileWriter` for `tf.train.SummaryWriter`"
        in by_name[10].fix.text
    )
    assert "renamed it `tf.summary.FileWriter`" in by_name[10].fix.text
    assert "TensorFlow 1.0 removed it" in by_name[7].detail


def test_read_file_closes_its_descriptor_where_no_file_object_takes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "train.py"
    source.write_text("import tensorflow as tf\n", encoding="utf-8")
    opened: list[int] = []
    real_open = os.open

    def recording_open(path: str, flags: int) -> int:
        fd = real_open(path, flags)
        opened.append(fd)
        return fd

    def refusing_open(fd: int, mode: str) -> object:
        raise OSError("no file object for it")

    # walker.os is the os module itself: the patch is undone when the test ends.
    monkeypatch.setattr(os, "open", recording_open)
    monkeypatch.setattr(walker, "open", refusing_open, raising=False)
    assert isinstance(walker.read_file(str(source)), OSError)
    [fd] = opened
    with pytest.raises(OSError):
        os.fstat(fd)  # closed: the descriptor does not leak


@pytest.mark.parametrize(
    ("python", "told"),
    [
        # TensorFlow 2.15 publishes wheels for Python 3.9 to 3.11 (the matrix's line).
        pytest.param("3.12.1", True, id="python-without-its-wheels"),
        pytest.param("3.10.12", False, id="python-with-its-wheels"),
        pytest.param(None, False, id="python-unknown"),
    ],
)
def test_the_last_release_with_a_name_is_offered_for_the_python_it_serves(
    python: object, told: bool
) -> None:
    """Running the code as written on the last release whose API has a removed name needs
    that release's wheels: where the Python is known and has none, the fix says so."""
    from tfdoctor.scan import Judge
    from tfdoctor.scan.walker import Use

    matrix = load_matrix()
    options = ScanOptions((), "2.21", python=python)  # type: ignore[arg-type]
    name = "tf.data.experimental.CheckpointInputPipelineHook"
    verdict = Judge(load_rules(), options, matrix).judge_use(Use(name, name, 0, 0, "attribute"))
    assert verdict is not None and "as written on TensorFlow 2.15" in verdict.fix.text
    line = matrix.line_for("2.15")
    assert line is not None
    pythons = line.pythons_on("")
    assert ("no wheel for Python 3.12" in verdict.fix.text) == told
    assert (f"Python {pythons[0]} to {pythons[-1]}" in verdict.fix.text) == told


@pytest.mark.parametrize(
    ("python", "platform"),
    [
        pytest.param(None, "", id="python-unknown"),
        pytest.param("3.7.9", "linux-x86_64", id="python-the-latest-patch-serves"),
        pytest.param("3.8.10", "", id="python-no-1x-release-serves"),
        pytest.param("2.7.18", "", id="python-an-earlier-patch-serves"),
        pytest.param("2.7.18", "windows-", id="python-no-patch-serves-here"),
    ],
)
def test_the_last_1x_line_a_tf1_rule_names_is_said_in_a_whole_sentence(
    python: object, platform: str
) -> None:
    """The release of the last 1.x line a rule that sends TensorFlow 1 code there adds is a
    sentence of its own, whichever Python the code runs under: a clause with its verb, never
    a purpose clause left hanging ("To run it on TensorFlow 1.15, in an environment ...")."""
    from tfdoctor.scan import Judge
    from tfdoctor.scan.walker import Use

    matrix = load_matrix()
    options = ScanOptions((), "2.21", python=python, platform=platform)  # type: ignore[arg-type]
    rules = load_rules()
    (rule,) = (x for x in rules.rules if x.cause == "tf-contrib-removed")
    verdict = Judge(rules, options, matrix).judge_use(
        Use("tf.contrib.rnn.LSTMCell", "tf.contrib.rnn.LSTMCell", 0, 0, "attribute")
    )
    assert verdict is not None and verdict.cause == rule.cause
    assert verdict.fix.text.startswith(rule.replacement)
    last = max((x for x in matrix.lines if x.key[:1] == (1,)), key=lambda x: x.key)
    added = verdict.fix.text[len(rule.replacement) :].strip()
    assert added.startswith(f"It runs unchanged on TensorFlow {last.line}"), added
    assert added.endswith(".") and added.count(". ") == 0, added


def test_a_strategys_renamed_method_is_found_by_the_receivers_name(tmp_path: Path) -> None:
    code = (
        "import tensorflow as tf\n"
        "strategy = tf.distribute.MirroredStrategy()\n"
        "out = strategy.experimental_run_v2(step, args=(x,))\n"
        "out = runner.experimental_run_v2(step)\n"
    )
    path = tmp_path / "train.py"
    path.write_text(code, encoding="utf-8")
    hits = _by_id(path, "scan.tf24-strategy-experimental-run-v2")
    assert [f.location.line for f in hits] == [3]
    assert "strategy.run(" in hits[0].fix.text
