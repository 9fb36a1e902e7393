"""The shipped module table (tfdoctor/data/modules.yaml): invariants of the data, the lookup
by dotted name, and a planted violation answered in one line naming the file, line and field."""

from __future__ import annotations

import pytest

from tests.factories import companion_table_names
from tests.planted import planted_error
from tfdoctor.evidence.packages import PLUGINS
from tfdoctor.evidence.traceback import origin_of
from tfdoctor.modules import MODULES_DATA, ModulesError, distribution_of, modules, parse_modules

TEXT = MODULES_DATA.read_text(encoding="utf-8")


def test_every_source_is_https_and_every_family_package_names_its_frames() -> None:
    table = modules()
    assert all(s.url.startswith("https://") for s in table.sources.values())
    for module in table.family:
        path = f"/env/lib/python3.11/site-packages/{module}/x.py"
        assert origin_of(path).dist == table.dists[module], module
    # A listed package outside the family is not read as a library origin of a traceback.
    assert origin_of("/env/lib/python3.11/site-packages/cv2/x.py").dist == ""


def test_libraries_built_on_tensorflow_are_listed_outside_the_family() -> None:
    table = modules()
    assert {"sonnet", "tensorflowjs", "tf2onnx"} <= table.on_tensorflow
    assert not table.on_tensorflow & table.family
    assert "numpy" not in table.on_tensorflow and "cv2" not in table.on_tensorflow
    assert all(module in table.dists for module in table.on_tensorflow)


def test_a_nightly_build_is_read_as_the_release_of_a_listed_package() -> None:
    table = modules()
    assert table.release_of("tb-nightly") == "tensorboard"
    assert table.release_of("tensorboard") == "tensorboard"
    assert table.release_of("no-such-nightly") == "no-such-nightly"
    # Every release named is a listed distribution, and no nightly is itself listed.
    assert set(table.nightlies.values()) <= set(table.dists.values())
    assert not set(table.nightlies) & set(table.dists.values())


@pytest.mark.parametrize(
    "module, dist",
    [
        ("cv2", "opencv-python"),
        ("google.protobuf.internal.builder", "protobuf"),
        ("tensorflow_text.python.ops", "tensorflow-text"),
        # Libraries on TensorFlow whose distribution is named otherwise (their setup.py).
        ("onnx_tf.backend", "onnx-tf"),
        ("mesh_tensorflow.transformer", "mesh-tensorflow"),
        ("kerastuner.engine.tuner", "keras-tuner"),
        ("deepmd.entrypoints", "deepmd-kit"),
        ("vit_keras", "vit-keras"),
        ("google", None),
        ("no_such_package", None),
    ],
)
def test_the_longest_listed_prefix_decides(module: str, dist: object) -> None:
    assert distribution_of(module) == dist


@pytest.mark.parametrize(
    "old, new, field",
    [
        ("{module: cv2, dist: opencv-python,", "{module: cv2, dist: OpenCV_Python,", "dist"),
        ("{module: cv2, dist: opencv-python,", "{module: 'cv2-x', dist: opencv-python,", "module"),
        (
            "{module: sklearn, dist: scikit-learn, source: wheel-record}",
            "{module: sklearn, dist: scikit-learn, source: nowhere}",
            "source",
        ),
        (
            "{module: keras, dist: keras, family: true,",
            "{module: keras, dist: keras, family: 1,",
            "family",
        ),
        (
            "{library: _mst_ops, dist: tensorflow-text,",
            "{library: _mst_ops.so, dist: tensorflow-text,",
            "library",
        ),
        (
            "{dist: tb-nightly, release: tensorboard,",
            "{dist: tb-nightly, release: TensorBoard,",
            "release",
        ),
        # The two removal tables' rows are read by one reader: each answers alike.
        ("{module: fractions, names: [gcd],", "{module: fractions, names: gcd,", "names"),
        (
            '{module: numpy.lib.arraypad, dist: numpy, removed_in: "1.16.0", names: [',
            '{module: numpy.lib.arraypad, dist: numpy, removed_in: "1.16.0", names: [1, ',
            "names[0]",
        ),
        ('names: [gcd], removed_in: "3.9",', 'names: [gcd], removed_in: "3.9.0",', "removed_in"),
        (
            '{module: numpy.lib.arraypad, dist: numpy, removed_in: "1.16.0",',
            '{module: numpy.lib.arraypad, dist: numpy, removed_in: "1.x",',
            "removed_in",
        ),
        (
            "{library: libtensorflowlite_c, what:",
            "{library: libtensorflowlite_c.so, what:",
            "library",
        ),
        # The install-step and native-library tables' rows are read by one reader.
        (
            '{module: tf_trt_models, command: "./install.sh",',
            "{module: tf_trt_models, command: 1,",
            "command",
        ),
        ("{library: libtensorflowlite_c, what:", "{library: libtensorflowlite_c, wat:", "wat"),
        (
            'commands: ["git clone https://github.com/tensorflow/tensorflow.git',
            'commands: [1, "git clone https://github.com/tensorflow/tensorflow.git',
            "commands",
        ),
    ],
    ids=[
        "dist-name",
        "module-name",
        "unknown-source",
        "family-not-boolean",
        "library-with-suffix",
        "nightly-release-name",
        "python-names-not-a-list",
        "distribution-name-not-a-string",
        "python-release",
        "distribution-release",
        "native-library-with-suffix",
        "install-step-command-not-a-string",
        "native-library-unknown-field",
        "native-library-command-not-a-string",
    ],
)
def test_a_planted_fault_is_one_line_naming_the_field(old: str, new: str, field: str) -> None:
    line, message = planted_error(parse_modules, ModulesError, TEXT, old, new, "modules.yaml")
    assert line > 1 and field in message.split(":")[0]


def test_modules_of_lists_every_import_package_of_a_distribution_in_table_order() -> None:
    table = modules()
    for dist in set(table.dists.values()):
        listed = [module for module, owner in table.dists.items() if owner == dist]
        assert list(table.modules_of(dist)) == listed
        assert table.module_of(dist) == listed[0]
    assert table.modules_of("no-such-distribution") == ()
    assert table.module_of("no-such-distribution") is None


def test_every_package_the_companion_table_names_is_answered_from_its_path() -> None:
    # The companion table names distributions; their import packages live here alone, so a
    # path into one names the distribution (a plug-in under tensorflow-plugins/ by its file).
    table = modules()
    plugins = {dist: prefix for prefix, dist, _ in PLUGINS}
    for dist in sorted(companion_table_names()):
        module = table.module_of(dist)
        if module is None:
            path = f"/env/lib/python3.11/site-packages/tensorflow-plugins/{plugins[dist]}.so"
            assert origin_of(path).dist == dist, dist
            continue
        assert distribution_of(f"{module}.python.ops") == dist, dist


def test_the_namespace_roots_are_the_top_folders_of_the_namespaces_table() -> None:
    # One list: explain's readings of a name missing under a shared root and the naming of a
    # file below one (google.cloud.storage) read the same table.
    # The roots are derived from the table's rows (a nested root, google.cloud, adds none).
    table = modules()
    assert {"google.cloud", "nvidia"} <= table.namespaces
    assert {"google", "nvidia"} <= table.namespace_roots
    # google.cloud, a namespace below google, gives the roots only its top folder.
    assert "google.cloud" not in table.namespace_roots
