"""The API listings of every line: the store's invariants, and how the generator reads wheels."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Optional

import pytest

from tests.scripts import load_script
from tfdoctor.matrix import version_key
from tfdoctor.scan import api
from tfdoctor.scan.api import Listing, bundled_lines, load_api, pack, parse_api, unpack

ROOT = Path(__file__).resolve().parent.parent
STORE = (Path(api.__file__).parent / api.STORE).read_text(encoding="utf-8")


def _load_script() -> ModuleType:
    """Import scripts/gen_scan_api.py."""
    return load_script("gen_scan_api")


# --- the store: a synthetic set --------------------------------------------------------------

SYNTHETIC = [
    Listing(
        "9.3",
        "9.3.0",
        "3.1.0",
        (
            "=tf.compat.v1.random_normal\ttf.random.normal",
            "tf\tVariable compat/ function keras/ random/",
            "tf.compat\tv1/",
            "tf.compat.v1\tSession random_normal",
            "tf.keras\t*",
            "tf.random\tnormal uniform",
        ),
    ),
    Listing(
        "9.2",
        "9.2.1",
        "",
        (
            "=tf.compat.v1.random_normal\ttf.random_normal_v2",
            "tf\tVariable compat/ contrib/ keras/ random/",
            "tf.compat\tv1/",
            "tf.compat.v1\tSession random_normal",
            "tf.contrib\t*",
            "tf.keras\tlayers/",
            "tf.keras.layers\tDense",
            "tf.random\tnormal",
        ),
    ),
    Listing("9.1", "9.1.0", "", ("tf\tSession",)),
]


def test_the_store_rebuilds_each_line_of_a_synthetic_set_exactly() -> None:
    text = pack(SYNTHETIC, ("a comment",))
    assert unpack(text) == SYNTHETIC
    ops = text.splitlines()
    # Newest in full; older lines as differences: a member in or out, a row set or dropped.
    assert ops[0] == "# a comment"
    assert ops[1] == "@ 9.3 tensorflow=9.3.0 keras=3.1.0"
    assert "~tf\t+contrib/ -function" in ops
    assert "+tf.random\tnormal" in ops  # as short as its difference: the whole row
    assert "+tf.keras\tlayers/" in ops  # from unlisted to listed: the whole row
    assert "-tf.random" in ops
    assert "+=tf.compat.v1.random_normal\ttf.random_normal_v2" in ops
    # A row the same in two lines is written once.
    assert ops.count("+tf.compat\tv1/") == 1
    assert pack(unpack(text), ("a comment",)) == text


def test_a_listing_from_the_store_is_the_listing_from_its_rows(tmp_path: Path) -> None:
    text = pack(SYNTHETIC)
    for listing in unpack(text):
        rows = "\n".join(listing.rows)
        index = parse_api(f"# tensorflow {listing.tensorflow}\n# keras {listing.keras}\n{rows}\n")
        assert index.line == listing.line
    old = parse_api("# tensorflow 9.2.1\n" + "\n".join(SYNTHETIC[1].rows))
    assert old.has("tf.keras.layers.Dense") and old.lookup("tf.contrib.x").status == "unknown"
    assert old.renames == {"tf.compat.v1.random_normal": "tf.random_normal_v2"}


# --- the store: the bundled file -------------------------------------------------------------


def test_the_bundled_store_is_in_its_canonical_form() -> None:
    head = [row[2:] for row in STORE.splitlines() if row.startswith("# ")]
    assert pack(unpack(STORE), head) == STORE


def order_faults(releases: Sequence[str]) -> list[str]:
    """What keeps a store's releases from being newest first, each once."""
    faults = []
    if list(releases) != sorted(releases, key=version_key, reverse=True):
        faults.append("not newest first")
    return faults + [f"{r} listed twice" for r, n in Counter(releases).items() if n > 1]


def missing_minors(releases: Sequence[str], first: str, last: Optional[str] = None) -> list[str]:
    """The minor releases of ``first``'s major from ``first`` to ``last`` (default: the newest
    listed of that major) that ``releases`` lacks."""
    major, low = version_key(first)[:2]
    minors = {version_key(r)[1] for r in releases if version_key(r)[0] == major}
    high = version_key(last)[1] if last else max(minors, default=low)
    return [f"{major}.{m}" for m in range(low, high + 1) if m not in minors]


def listing_faults(listing: Listing) -> list[str]:
    """A listing whose version is of another line, or whose keys or members are not sorted
    (the store packs sorted rows; a lookup bisects them)."""
    version = listing.tensorflow or listing.keras
    faults = [] if version.startswith(listing.line + ".") else [f"{version} is not of its line"]
    keys = [row.partition("\t")[0] for row in listing.rows]
    if keys != sorted(keys):
        faults.append(f"{listing.line}: keys not sorted")
    for row in listing.rows:
        members = row.partition("\t")[2].split()
        if members != sorted(set(members)):
            faults.append(f"{listing.line}: members not sorted: {row[:60]}")
    return faults


def store_blocks(text: str) -> list[list[str]]:
    """Each block's operations, in store order."""
    block: list[str] = []
    blocks = []
    for row in text.splitlines():
        if row.startswith("@ "):
            block = []
            blocks.append(block)
        elif row and not row.startswith("#"):
            block.append(row)
    return blocks


def block_faults(text: str) -> list[str]:
    """Blocks whose operations are not sorted by key, or touch a key twice."""
    faults = []
    for number, ops in enumerate(store_blocks(text)):
        keys = [op[1:].partition("\t")[0] for op in ops]
        if keys != sorted(keys) or len(set(keys)) != len(keys):
            faults.append(f"block {number}")
    return faults


def store_releases(text: str) -> list[str]:
    """The releases a store's blocks name, in store order."""
    return [row.split()[1] for row in text.splitlines() if row.startswith("@ ")]


def test_every_line_from_2_0_is_listed_once_newest_first() -> None:
    lines = store_releases(STORE)
    assert order_faults(lines) == [] and missing_minors(lines, "2.0") == []
    assert tuple(lines) == bundled_lines()
    # Planted: two lines swapped, one listed twice, one left out.
    assert order_faults([lines[1], lines[0], *lines[2:]]) == ["not newest first"]
    assert order_faults([lines[0], *lines]) == [f"{lines[0]} listed twice"]
    assert missing_minors([*lines[:2], *lines[3:]], "2.0") == [lines[2]]


def test_each_line_is_sorted_and_its_versions_are_of_that_line() -> None:
    listings = unpack(STORE)
    assert [fault for listing in listings for fault in listing_faults(listing)] == []
    # Planted: another line's version, rows out of order, members out of order.
    newest = listings[0]
    assert listing_faults(dataclasses.replace(newest, tensorflow="1.15.5")) == [
        "1.15.5 is not of its line"
    ]
    swapped = dataclasses.replace(newest, rows=(newest.rows[1], newest.rows[0], *newest.rows[2:]))
    assert listing_faults(swapped) == [f"{newest.line}: keys not sorted"]
    unsorted = dataclasses.replace(newest, rows=("tf\tb a",))
    assert listing_faults(unsorted) == [f"{newest.line}: members not sorted: tf\tb a"]


def test_each_block_writes_only_what_differs_sorted_by_key() -> None:
    assert block_faults(STORE) == []
    # Planted: the last block's two first operations swapped, or one written twice.
    rows = STORE.splitlines()
    start = max(i for i, row in enumerate(rows) if row.startswith("@ ")) + 1
    swapped = [*rows[:start], rows[start + 1], rows[start], *rows[start + 2 :]]
    last = len(store_blocks(STORE)) - 1
    assert block_faults("\n".join(swapped)) == [f"block {last}"]
    twice = [*rows[: start + 1], rows[start], *rows[start + 1 :]]
    assert block_faults("\n".join(twice)) == [f"block {last}"]
    # Far smaller than 22 listings written out (each is about 120 KB).
    blocks = store_blocks(STORE)
    assert len(STORE) < 4 * sum(len(op) for op in blocks[0])


KERAS_STORES = {
    dist: (Path(api.__file__).parent / store).read_text(encoding="utf-8")
    for dist, store in api.KERAS_STORES.items()
}


@pytest.mark.parametrize("dist", sorted(KERAS_STORES))
def test_each_keras_store_is_canonical_newest_first_each_minor_once(dist: str) -> None:
    text = KERAS_STORES[dist]
    head = [row[2:] for row in text.splitlines() if row.startswith("# ")]
    assert pack(unpack(text), head) == text
    releases = store_releases(text)
    assert order_faults(releases) == []
    assert tuple(releases) == api.keras_releases(dist)
    for listing in unpack(text):
        assert listing_faults(listing) == [] and not listing.tensorflow
    # Much smaller than the releases written out in full.
    full = sum(len("\n".join(x.rows)) for x in unpack(text))
    assert len(text) * 4 < full


def test_the_keras_stores_cover_keras_2_6_on_every_keras_3_and_tf_keras_from_2_14() -> None:
    keras = api.keras_releases("keras")
    assert missing_minors(keras, "2.6", "2.15") == [] and missing_minors(keras, "3.0") == []
    tf_keras = api.keras_releases("tf-keras")
    assert min(tf_keras, key=version_key) == "2.14" and missing_minors(tf_keras, "2.14") == []
    # Planted: a Keras 2 release and a Keras 3 release left out.
    assert missing_minors([r for r in keras if r != "2.10"], "2.6", "2.15") == ["2.10"]
    assert missing_minors([r for r in keras if r != "3.1"], "3.0") == ["3.1"]


@pytest.mark.parametrize(
    ("dist", "name", "first", "last"),
    [
        # Keras 3 keeps the legacy optimizers' names (creating one raises ImportError).
        pytest.param("keras", "keras.optimizers.legacy.Adam", "2.9", None, id="legacy"),
        pytest.param(
            "keras", "keras.wrappers.scikit_learn.KerasClassifier", "2.6", "2.12", id="sklearn"
        ),
        pytest.param("keras", "keras.ops.sum", "3.0", None, id="keras3.ops"),
        pytest.param("keras", "keras.layers.Dense", "2.6", None, id="Dense"),
        # Keras 3.3 star-imports its API from keras/api: listed all the same.
        pytest.param("keras", "keras.layers.Conv2D", "2.6", None, id="keras3.3-star"),
        pytest.param("tf-keras", "tf_keras.optimizers.legacy.Adam", "2.14", None, id="tf-keras"),
        pytest.param(
            "tf-keras", "tf.compat.v1.keras.backend.get_session", "2.14", None, id="v1-tree"
        ),
    ],
)
def test_keras_names_exist_in_the_releases_that_ship_them(
    dist: str, name: str, first: str, last: str | None
) -> None:
    for release in api.keras_releases(dist):
        index = api.load_keras(dist, release)
        assert index is not None
        inside = version_key(first) <= version_key(release) and (
            last is None or version_key(release) <= version_key(last)
        )
        assert index.has(name) == inside, release


def test_keras_2_before_2_13_leaves_its_implementation_unjudged() -> None:
    index = api.load_keras("keras", "2.12")
    assert index is not None
    assert index.lookup("keras.engine.base_layer.Layer").status == "unknown"
    assert index.lookup("keras.layers.NoSuchLayer").status == "missing"
    line = load_api("2.12")
    assert line is not None and line.keras == "2.12.0"
    assert line.has("keras.wrappers.scikit_learn.KerasClassifier")


@pytest.mark.parametrize(
    ("name", "first", "last"),
    [
        pytest.param("tf.compat.v1.Session", "2.0", None, id="compat.v1"),
        # Keras 3 serves tf.compat.v1.keras as it serves tf.keras (KerasLazyLoader).
        pytest.param("tf.compat.v1.keras.layers.Dense", "2.0", None, id="compat.v1.keras"),
        pytest.param("tf.compat.v1.keras.layers.CuDNNLSTM", "2.0", "2.15", id="v1.CuDNNLSTM"),
        # ... but refuses its legacy submodules: tf.compat.v1.layers keeps TensorFlow's own.
        pytest.param("tf.compat.v1.layers.dense", "2.0", "2.15", id="compat.v1.layers"),
        pytest.param("tf.estimator.Estimator", "2.0", "2.15", id="estimator"),
        pytest.param("tf.keras.optimizers.legacy.Adam", "2.9", None, id="optimizers.legacy"),
        pytest.param("tf.keras.utils.multi_gpu_model", "2.0", "2.3", id="multi_gpu_model"),
        pytest.param("tf.losses.MeanSquaredError", "2.0", None, id="tf.losses"),
        pytest.param("tf.keras.ops.sum", "2.16", None, id="keras3"),
        # Standalone Keras 2 from its own wheel: the tree 2.6 to 2.12 generate for tf.keras,
        # keras/ itself from 2.13 (keras/src holds the code).
        pytest.param("keras.backend.int_shape", "2.6", "2.15", id="keras2"),
        pytest.param("keras.wrappers.scikit_learn.KerasClassifier", "2.6", "2.12", id="sklearn"),
        # tf-keras, listed from 2.14 (its first release) with the line of its number.
        pytest.param("tf_keras.optimizers.legacy.Adam", "2.14", None, id="tf_keras"),
    ],
)
def test_names_exist_in_the_lines_the_wheels_ship_them(
    name: str, first: str, last: str | None
) -> None:
    # Read from the wheels: 2.0 and 2.1 as tensorflow_core, tf.keras from tensorflow's own
    # tree to 2.5 and Keras 2's from 2.6 (lazily loaded), Keras 3's from 2.16.
    for line in bundled_lines():
        index = load_api(line)
        assert index is not None
        inside = version_key(first) <= version_key(line) and (
            last is None or version_key(line) <= version_key(last)
        )
        assert index.has(name) == inside, line


# --- the generator ---------------------------------------------------------------------------

#: How TensorFlow 2.0's tensorflow_core/__init__.py sets tf.keras and tf.losses.
TF20_KERAS = (
    "try:\n"
    "  from .python.keras.api._v2 import keras\n"
    "except ImportError:\n"
    "  pass\n"
    "if hasattr(_current_module, 'keras'):\n"
    "  losses = keras.losses\n"
    "  setattr(_current_module, 'losses', losses)\n"
)


def test_the_generator_reads_every_way_a_line_exports_a_name() -> None:
    gen = _load_script()
    text = (
        "from . _api.v2 import audio\n"
        "from .python.ops import array_ops as _array_ops\n"
        "from tensorflow.python.ops.math_ops import add\n"
        "_estimator_module = 'tensorflow_estimator.python.estimator.api._v2.estimator'\n"
        "estimator = _LazyLoader('estimator', globals(), _estimator_module)\n"
        "setattr(_current_module, 'estimator', estimator)\n"
        + TF20_KERAS
        + "setattr(_current_module, 'keras', _KerasLazyLoader(globals()))\n"
        "_current_module.layers = _KerasLazyLoader(globals(), submodule='legacy', mode='v1')\n"
        "def _hidden():\n"
        "  from tensorflow.python import not_api\n"
    )
    members = gen._members(text, "tensorflow_core")
    assert members == [
        ("audio", "tensorflow_core._api.v2.audio"),
        ("_array_ops", "tensorflow_core.python.ops.array_ops"),
        ("add", "tensorflow.python.ops.math_ops.add"),
        ("estimator", "tensorflow_estimator.python.estimator.api._v2.estimator"),
        ("keras", "tensorflow_core.python.keras.api._v2.keras"),
        ("losses", "tensorflow_core.python.keras.api._v2.keras.losses"),
        ("keras", "<keras>v2:"),
        ("layers", "<keras>v1:legacy"),
    ]


def test_the_generator_reads_how_a_1x_line_exports_a_name() -> None:
    # 1.9 to 1.15: public names assigned lazy loaders (with 1.13's warning argument), a module
    # put into a submodule (tf.app.flags; 1.15 through _current_module), 1.13's package hook
    # for tf.estimator, and unaliased __future__ imports that are no API.
    gen = _load_script()
    text = (
        "from __future__ import print_function\n"
        "from tensorflow._api.v1 import app\n"
        "from tensorflow.python.platform import flags\n"
        "_component_api_helper.package_hook(\n"
        "    parent_package_str=__name__,\n"
        "    child_package_str=('tensorflow_estimator.python.estimator.api.estimator'))\n"
        "contrib = LazyLoader('contrib', globals(), 'tensorflow.contrib', _CONTRIB_WARNING)\n"
        "app.flags = flags\n"
        "_current_module.app.flags = flags\n"
    )
    assert gen._members(text, "tensorflow") == [
        ("app", "tensorflow._api.v1.app"),
        ("flags", "tensorflow.python.platform.flags"),
        ("estimator", "tensorflow_estimator.python.estimator.api.estimator"),
        ("contrib", "tensorflow.contrib"),
        ("app.flags", "tensorflow.python.platform.flags"),
    ]


def _write(site: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = site / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_the_generator_lists_a_2_0_layout_with_tf_keras_and_compat_v1(tmp_path: Path) -> None:
    # TensorFlow 2.0 and 2.1: the package is tensorflow_core, the files import relatively,
    # tf.keras is TensorFlow's own tree and tf.losses an attribute of it.
    gen = _load_script()
    _write(
        tmp_path,
        {
            "tensorflow/__init__.py": "from tensorflow_core import *\n",
            "tensorflow_core/__init__.py": (
                "from . _api.v2 import compat\n"
                "from . _api.v2 import random\n"
                "from tensorflow.python.ops.variables import Variable\n" + TF20_KERAS
            ),
            "tensorflow_core/_api/v2/compat/__init__.py": "from . import v1\n",
            "tensorflow_core/_api/v2/compat/v1/__init__.py": (
                "from tensorflow.python.client.session import Session\n"
                "from tensorflow.python.ops.random_ops import random_normal\n"
                "from tensorflow.python.keras.api._v1 import keras\n"
            ),
            "tensorflow_core/_api/v2/random/__init__.py": (
                "from tensorflow.python.ops.random_ops import random_normal as normal\n"
            ),
            "tensorflow_core/python/keras/api/_v2/keras/__init__.py": "from . import losses\n",
            "tensorflow_core/python/keras/api/_v2/keras/losses/__init__.py": (
                "from tensorflow.python.keras.losses import MeanSquaredError\n"
            ),
            "tensorflow_core/python/keras/api/_v1/keras/__init__.py": "from . import layers\n",
            "tensorflow_core/python/keras/api/_v1/keras/layers/__init__.py": (
                "from tensorflow.python.keras.layers.core import Dense\n"
            ),
            "tensorflow-2.0.4.dist-info/METADATA": "Version: 2.0.4\n",
            "keras-2.3.1.dist-info/METADATA": "Version: 2.3.1\n",
        },
    )
    tf_version, keras_version, rows = gen.render(gen.SiteTree(tmp_path))
    assert (tf_version, keras_version) == ("2.0.4", "2.3.1")
    assert rows == [
        "tf\tVariable compat/ keras/ losses/ random/",
        "tf.compat\tv1/",
        "tf.compat.v1\tSession keras/ random_normal",
        "tf.compat.v1.keras\tlayers/",
        "tf.compat.v1.keras.layers\tDense",
        "tf.keras\tlosses/",
        "tf.keras.losses\tMeanSquaredError",
        "tf.losses\tMeanSquaredError",
        "tf.random\tnormal",
        "=tf.compat.v1.random_normal\ttf.random.normal",
    ]


def test_the_generator_serves_tf_compat_v1_keras_from_keras_3_but_not_its_legacy_layers(
    tmp_path: Path,
) -> None:
    # KerasLazyLoader (tensorflow/python/util/lazy_loader.py) loads keras._tf_keras.keras for
    # either mode under Keras 3, and raises AttributeError under "__internal__.legacy.".
    gen = _load_script()
    _write(tmp_path, {"keras/_tf_keras/keras/__init__.py": "", "keras/src/__init__.py": ""})
    site = gen.SiteTree(tmp_path)
    assert gen.keras_tree(site, "<keras>v1:") == "keras._tf_keras.keras"
    assert gen.keras_tree(site, "<keras>v1:layers") == "keras._tf_keras.keras.layers"
    assert gen.keras_tree(site, "<keras>v1:__internal__.legacy.layers") == ""
    keras2 = gen.SiteTree(tmp_path / "none")
    assert gen.keras_tree(keras2, "<keras>v1:") == "keras.api._v1.keras"


def test_the_generator_lists_each_keras_layout(tmp_path: Path) -> None:
    gen = _load_script()
    # Keras 2.12: keras/ is the implementation, the API the tree generated for tf.keras.
    k212 = tmp_path / "k212"
    _write(
        k212,
        {
            "keras/__init__.py": "from keras import models\nfrom keras.engine import Layer\n",
            "keras/engine/__init__.py": "",
            "keras/layers/__init__.py": "from keras.layers.core import Dense, Flatten\n",
            "keras/api/_v2/keras/__init__.py": "from keras.api._v2.keras import layers\n",
            "keras/api/_v2/keras/layers/__init__.py": "from keras.layers.core import Dense\n",
        },
    )
    rows = gen.keras_rows(gen.SiteTree(k212), "keras", ["api", "engine", "layers"])
    assert rows == ["keras\tengine/ layers/", "keras.engine\t*", "keras.layers\tDense"]
    # Keras 3.3: keras/__init__.py star-imports keras/api.
    k33 = tmp_path / "k33"
    _write(
        k33,
        {
            "keras/__init__.py": "from keras.api import *  # noqa: F403\n",
            "keras/src/__init__.py": "",
            "keras/api/__init__.py": "from keras.api import ops\n",
            "keras/api/ops/__init__.py": "from keras.src.ops.numpy import sum\n",
        },
    )
    assert gen.keras_rows(gen.SiteTree(k33), "keras") == ["keras\tops/", "keras.ops\tsum"]
    # tf-keras: its own tree, and the v1 tree TensorFlow serves as tf.compat.v1.keras.
    tfk = tmp_path / "tfk"
    _write(
        tfk,
        {
            "tf_keras/__init__.py": "from tf_keras import layers\n",
            "tf_keras/src/__init__.py": "",
            "tf_keras/layers/__init__.py": "from tf_keras.src.layers import Dense\n",
            "tf_keras/api/_v1/keras/__init__.py": "from tf_keras.api._v1.keras import backend\n",
            "tf_keras/api/_v1/keras/backend/__init__.py": (
                "from tf_keras.src.backend import get_session\n"
            ),
        },
    )
    assert gen.keras_rows(gen.SiteTree(tfk), "tf-keras") == [
        "tf.compat.v1.keras\tbackend/",
        "tf.compat.v1.keras.backend\tget_session",
        "tf_keras\tlayers/",
        "tf_keras.layers\tDense",
    ]


def test_the_bundled_1x_listings_hold_when_names_arrived() -> None:
    from tfdoctor.scan.api import load_tf1, tf1_lines

    assert tf1_lines() == ("1.15", "1.14", "1.13", "1.12", "1.11", "1.10", "1.9")
    has = {line: load_tf1(line) for line in tf1_lines()}
    assert all(index is not None for index in has.values())
    first = {
        name: min((x for x, i in has.items() if i is not None and i.has(name)), key=_key)
        for name in ("tf.py_function", "tf.function", "tf.compat.v1", "tf.app.flags")
    }
    assert first == {
        "tf.py_function": "1.13",
        "tf.function": "1.14",
        "tf.compat.v1": "1.13",
        "tf.app.flags": "1.9",
    }
    last = has["1.15"]
    assert last is not None and last.has("tf.contrib") and not last.has("tf.random.set_seed")


def _key(line: str) -> tuple[int, ...]:
    return tuple(int(p) for p in line.split("."))


def test_the_generator_leaves_out_what_a_module_deletes() -> None:
    gen = _load_script()
    text = (
        "from tensorflow.python.util.lazy_loader import LazyLoader\n"
        "contrib = LazyLoader('contrib', globals(), 'tensorflow.contrib')\n"
        "del LazyLoader\n"
    )
    assert gen._members(text, "tensorflow") == [("contrib", "tensorflow.contrib")]
