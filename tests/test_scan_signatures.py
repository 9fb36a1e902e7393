"""The parameters of TensorFlow's public callables by line: the generator's reading of a wheel
(scripts/gen_scan_signatures.py), the store's accessor, and the shipped file's facts."""

from __future__ import annotations

import zipfile
from pathlib import Path
from types import ModuleType

import pytest

from tests.scripts import load_script
from tfdoctor.keras_api import keras_api
from tfdoctor.matrix import version_key
from tfdoctor.scan import api
from tfdoctor.scan.api import Listing, ParameterListings, keyword_releases, pack
from tfdoctor.scan.rules import load_rules

ROOT = Path(__file__).resolve().parent.parent


def _load_script() -> ModuleType:
    """Import scripts/gen_scan_signatures.py."""
    return load_script("gen_scan_signatures")


# --- the generator: a wheel of our own --------------------------------------------------------

#: A wheel's generated ``tensorflow/__init__.py``: public name -> implementation symbol.
_INIT = (
    "from tensorflow.python.ops.reduce_ops import reduce_all\n"
    "from tensorflow.python.ops.reduce_ops import Spec\n"
    "from tensorflow.python.ops.reduce_ops import Plain\n"
    "from tensorflow.python.ops.reduce_ops import wrapped\n"
    "from tensorflow.python.ops.reduce_ops import LIMIT\n"
    "from tensorflow.python.ops.reduce_ops import op_made\n"
    "from tensorflow.python.ops.reduce_ops import twice\n"
    "from tensorflow.python.ops.reduce_ops import Dated\n"
)
_IMPL = (
    "from tensorflow.python.ops.gen_reduce_ops import *\n"
    "from tensorflow.python.util.deprecation import deprecated_args\n"
    "\n"
    "@deprecated_args(None, 'use keepdims', 'keep_dims')\n"
    "def reduce_all(input_tensor, axis=None, keepdims=None, keep_dims=None, name=None):\n"
    "    pass\n"
    "reduce_all.__doc__ = 'documented'\n"
    "\n"
    "class _Base:\n"
    "    def __init__(self, shape, dtype=None, **kwargs):\n"
    "        pass\n"
    "\n"
    "class Spec(_Base):\n"
    "    pass\n"
    "\n"
    "class Plain(object):\n"
    "    pass\n"
    "\n"
    "wrapped = deprecated_args(None, 'x')(reduce_all)\n"
    "LIMIT = 3\n"
    "\n"
    "try:\n"
    "    def twice(a):\n"
    "        pass\n"
    "except ImportError:\n"
    "    def twice(a, b):\n"
    "        pass\n"
    "\n"
    "@dataclasses.dataclass\n"
    "class Dated:\n"
    "    when: int\n"
)
_GEN = "def op_made(x, /, y, name=None, *, flag=False):\n    pass\n"


def _wheel(tmp_path: Path) -> Path:
    path = tmp_path / "tensorflow_cpu-9.9.0-cp311-cp311-manylinux_2_17_x86_64.whl"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("tensorflow/__init__.py", _INIT)
        archive.writestr("tensorflow/python/__init__.py", "")
        archive.writestr("tensorflow/python/ops/__init__.py", "")
        archive.writestr("tensorflow/python/ops/reduce_ops.py", _IMPL)
        archive.writestr("tensorflow/python/ops/gen_reduce_ops.py", _GEN)
        archive.writestr(
            "tensorflow_cpu-9.9.0.dist-info/METADATA", "Name: tensorflow-cpu\nVersion: 9.9.0\n"
        )
    return path


def test_the_generator_reads_what_each_def_declares(tmp_path: Path) -> None:
    script = _load_script()
    with zipfile.ZipFile(_wheel(tmp_path)) as archive:
        rows = dict(r.split("\t") for r in script.signature_rows(archive, "9.9.0"))
    assert rows == {
        # A decorator keeps the def's own parameters; an attribute set later rebinds nothing.
        "tf.reduce_all": "axis input_tensor keep_dims keepdims name",
        # A class without __init__ of its own takes its base's; self is no argument.
        "tf.Spec": "** dtype shape",
        "tf.Plain": "",
        # Star-imported from a generated module; positional-only parameters are not keywords.
        "tf.op_made": "flag name y",
    }
    # Left out, not guessed: an assignment, a constant, a name defined twice, a dataclass.
    assert not {"tf.wrapped", "tf.LIMIT", "tf.twice", "tf.Dated"} & rows.keys()


def test_the_generator_writes_one_line_per_wheel(tmp_path: Path) -> None:
    script = _load_script()
    (listing,) = script.listings([_wheel(tmp_path)])
    assert (listing.line, listing.tensorflow) == ("9.9", "9.9.0")


# --- the store and its accessor: listings of our own ------------------------------------------

_STORE = pack(
    [
        Listing("7.3", "7.3.1", "", ("tf.fit\taxis name shuffle", "tf.run\t** x")),
        Listing("7.2", "7.2.0", "", ("tf.fit\taxis name", "tf.run\t** x")),
        Listing("7.1", "7.1.4", "", ("tf.fit\taxis dim name", "tf.run\t** x")),
        Listing("7.0", "7.0.0", "", ("tf.run\t** x",)),
    ]
)


def test_a_keyword_is_dated_by_the_lines_that_take_it() -> None:
    listings = ParameterListings(_STORE)
    assert listings.lines == ("7.3", "7.2", "7.1", "7.0")
    added = listings.keyword("tf.fit", "shuffle")
    assert (added.having, added.taking, added.first) == (("7.1", "7.2", "7.3"), ("7.3",), "7.3")
    removed = listings.keyword("tf.fit", "dim")
    assert (removed.last, removed.span(), removed.takes("7.2")) == ("7.1", "7.1", False)
    # A line whose listing does not read the callable says nothing of it.
    assert removed.takes("7.0") is None
    # **kwargs alone takes no keyword by name.
    assert listings.keyword("tf.run", "anything").taking == ()
    assert listings.keyword("tf.run", "x").span() == "7.0 to 7.3"
    assert listings.of("tf.missing") == {}


# --- the shipped file --------------------------------------------------------------------------


def test_the_shipped_file_covers_the_tensorflow_lines() -> None:
    text = (Path(api.__file__).parent / api.SIGNATURE_STORE).read_text(encoding="utf-8")
    assert text.startswith("# ") and len(text.encode()) < 600_000
    lines = ParameterListings(text).lines
    assert {"1.9", "1.15", "2.0", "2.5", "2.21"} <= set(lines)


@pytest.mark.parametrize(
    "name, keyword, span",
    [
        # tensorflow/python/ops/math_ops.py: 1.9.0's to 1.15.5's reduce_max(input_tensor,
        # axis=None, keepdims=None, name=None, reduction_indices=None, keep_dims=None); 2.0.4's
        # on reduce_max(input_tensor, axis=None, keepdims=False, name=None), 1.x's kept as
        # reduce_max_v1 for tf.compat.v1 (read from the wheels). keepdims came in 1.5 (the
        # release notes, the scan rule's renamed_in): the listings start at 1.9.
        pytest.param("tf.reduce_max", "keepdims", "1.9 to 2.21", id="reduce-max-keepdims"),
        pytest.param("tf.reduce_max", "keep_dims", "1.9 to 1.15", id="reduce-max-keep-dims"),
        pytest.param(
            "tf.compat.v1.reduce_max", "keep_dims", "2.0 to 2.21", id="v1-reduce-max-keep-dims"
        ),
        # tensorflow/python/eager/def_function.py (polymorphic_function.py from 2.12): 2.4.4's
        # function(..., experimental_compile=None), 2.5.3's adds jit_compile.
        pytest.param("tf.function", "jit_compile", "2.5 to 2.21", id="function-jit-compile"),
        # tensorflow/python/ops/stateful_random_ops.py: create_rng_state(seed, algorithm) in
        # 1.14.0 to 2.1.4, create_rng_state(seed, alg) from 2.2.3.
        pytest.param(
            "tf.random.experimental.create_rng_state",
            "algorithm",
            "1.14 to 2.1",
            id="create-rng-state-algorithm",
        ),
    ],
)
def test_the_shipped_file_holds_what_the_wheels_say(name: str, keyword: str, span: str) -> None:
    assert keyword_releases(name, keyword).span() == span


def test_the_hand_written_keyword_rows_agree_with_the_wheels() -> None:
    # What a hand-written row says of a public callable the listings read must be what the
    # wheels say: the API table's line that brought a keyword, and scan's rules' line that
    # took one away.
    checked = 0
    for kwarg, row in keras_api().tensorflow2_arguments.items():
        dated = keyword_releases(row.api, kwarg)
        if dated.having:
            assert (dated.first, dated.before(dated.first)) == (row.added_in, False), row.api
            checked += 1
    for rule in load_rules().rules:
        if rule.kind != "removed" or not rule.kwarg:
            continue
        for name in rule.api:
            dated = keyword_releases(name, rule.kwarg)
            if dated.having:
                later = [x for x in dated.taking if version_key(x) >= version_key(rule.release)]
                assert not later, (rule.id, name)
                checked += 1
    assert checked
