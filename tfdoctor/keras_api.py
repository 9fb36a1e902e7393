"""What standalone Keras releases changed in the API code calls, read from
``data/keras_api.yaml``.

Code written for one side of a change fails under a Keras of the other side in words of its
own (an optimizer refusing ``learning_rate``, a tensor without ``_keras_shape``, ``fit()``
refusing ``nb_epoch``); the rows say which release made the change. Every row names its
sources. Imports nothing from the package but the YAML reader and the record base.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from tfdoctor.records import Record, record
from tfdoctor.yamldoc import SOURCE_ID, DataSource, NodeReader, compose, load_cached

if TYPE_CHECKING:
    from yaml import Node

#: The table shipped inside the package.
KERAS_API_DATA = Path(__file__).parent / "data" / "keras_api.yaml"
KERAS_API_VERSION = 1

#: A Keras release as the companion table numbers them (``2.3``, ``2.0.7``).
_RELEASE = re.compile(r"^\d+\.\d+(?:\.\d+)?$")
#: A TensorFlow 2 line after 2.0 (``2.4``): the line before it is 2.x too.
_TF2_LINE = re.compile(r"^2\.[1-9]\d*$")
#: A Python identifier: a keyword argument or an attribute.
_NAME = re.compile(r"^[A-Za-z_]\w*$")
#: A function's dotted name: public (``tf.function``) or in TensorFlow's own modules
#: (``tensorflow.compiler.tf2xla.python.xla.conv``).
_API = re.compile(r"^(?:tf|tensorflow)(?:\.[A-Za-z_]\w*)+$")


@record
class KerasRename(Record):
    """A training argument Keras 2.0 renamed."""

    #: The Keras 2 name of the Keras 1 argument.
    renamed_to: str
    #: The new argument counts batches where the old one counted samples.
    counts_batches: bool = False


@record
class ArgumentAdded(Record):
    """A keyword argument a TensorFlow 2 function takes from a later line on."""

    #: The function as Python's refusal names it (``compile``), and its name: a public one
    #: (``tf.keras.Model.compile``) or its module's path inside the wheel for a function of
    #: TensorFlow's own modules (``tensorflow.compiler.tf2xla.python.xla.conv``).
    function: str
    api: str
    #: The first TensorFlow line that takes it (``2.4``), and its name in the line before
    #: ("" where the argument is new, not renamed).
    added_in: str
    older_name: str = ""
    #: What leaving the argument out costs ("" where the table does not say).
    dropped: str = ""

    @property
    def before(self) -> str:
        """The TensorFlow line before :attr:`added_in` (``2.3``)."""
        major, minor = self.added_in.split(".")[:2]
        return f"{major}.{int(minor) - 1}"

    @property
    def public(self) -> bool:
        """Whether the function is TensorFlow's public API (``tf.``): user code calls that;
        a function of TensorFlow's own modules is called by libraries built on it (JAX's
        jax2tf calls the XLA ops' wrappers of ``tensorflow.compiler.tf2xla.python.xla``)."""
        return self.api.startswith("tf.")


class KerasApiError(ValueError):
    """A Keras API table that cannot be used: ``FILE:LINE: FIELD: what is wrong``."""


@record
class KerasApi(Record):
    """The API changes of standalone Keras releases."""

    path: str
    sources: Mapping[str, DataSource]
    #: The last standalone Keras with its own backends (``2.3``).
    multi_backend_last: str
    #: The first release calling an optimizer's ``get_updates(loss, params)`` (``2.0.7``).
    get_updates_changed_in: str
    #: Optimizer keyword -> the release that brought it.
    optimizer_arguments: Mapping[str, str]
    #: Tensor attribute only multi-backend Keras set -> its last release that set it.
    tensor_attributes: Mapping[str, str]
    #: Keras 1 training argument -> its Keras 2 rename.
    keras2_renamed: Mapping[str, KerasRename]
    #: TensorFlow 2 keyword argument -> the line that brought it (tf.keras, tf.function).
    tensorflow2_arguments: Mapping[str, ArgumentAdded]
    #: The first standalone Keras (``2.3``) and the first TensorFlow line (``2.0``) whose Keras
    #: logs a metric under the string given to compile; before them ``accuracy`` is ``acc``.
    metric_names_kept_in: str
    tf_metric_names_kept_in: str
    #: Where those two releases are recorded (their sources' addresses).
    metric_names_links: tuple[str, ...]


def _release(reader: NodeReader, node: Node, where: str) -> str:
    """A quoted Keras release (``"2.3"``)."""
    return reader.required_string(node, where, _RELEASE, "Keras release (2.3)")


def _name_reader(reader: NodeReader) -> Callable[[Node, str], str]:
    """The reader of a row's Python name (a keyword argument, an attribute)."""
    return reader.matching(_NAME, "Python name")


def _single(
    reader: NodeReader, top: Mapping[str, Node], field: str, sources: Mapping[str, DataSource]
) -> tuple[str, tuple[str, ...]]:
    """A ``{release, source}`` mapping's release and its source ids."""
    fields = reader.mapping(top[field], field, ("release", "source"))
    ids = reader.source_ids(fields["source"], f"{field}.source", sources)
    return _release(reader, fields["release"], f"{field}.release"), ids


def _releases_by_name(
    reader: NodeReader,
    top: Mapping[str, Node],
    field: str,
    key: str,
    release: str,
    sources: Mapping[str, DataSource],
) -> dict[str, str]:
    """Rows of a name (``key``) and a release (``release``): name -> release."""
    out: dict[str, str] = {}
    for where, value, fields, _ in reader.sourced_rows(
        top[field], field, key, (release,), (), _name_reader(reader), sources
    ):
        out[value] = _release(reader, fields[release], f"{where}.{release}")
    return out


def parse_keras_api(text: str, path: str = "<keras_api>") -> KerasApi:
    """Validate Keras API table YAML ``text`` (``path`` names it in errors)."""
    root = compose(text, path, "Keras API table", KerasApiError)
    reader = NodeReader(path, KerasApiError)
    top = reader.mapping(
        root,
        "keras_api",
        (
            "schema_version",
            "sources",
            "multi_backend_last",
            "get_updates_changed_in",
            "optimizer_arguments",
            "multi_backend_tensor_attributes",
            "keras2_renamed",
            "tensorflow2_arguments",
            "metric_names_kept_in",
            "tf_metric_names_kept_in",
        ),
    )
    reader.schema_version(top["schema_version"], KERAS_API_VERSION)
    sources = reader.sources(top["sources"], SOURCE_ID, DataSource)
    name = _name_reader(reader)

    renamed: dict[str, KerasRename] = {}
    for where, old, fields, _ in reader.sourced_rows(
        top["keras2_renamed"],
        "keras2_renamed",
        "argument",
        ("renamed_to",),
        ("counts_batches",),
        name,
        sources,
    ):
        renamed[old] = KerasRename(
            name(fields["renamed_to"], f"{where}.renamed_to"),
            reader.flag(fields, "counts_batches", f"{where}.counts_batches"),
        )
    added: dict[str, ArgumentAdded] = {}
    for where, argument, fields, _ in reader.sourced_rows(
        top["tensorflow2_arguments"],
        "tensorflow2_arguments",
        "argument",
        ("function", "api", "added_in"),
        ("older_name", "dropped"),
        name,
        sources,
    ):
        since = reader.required_string(
            fields["added_in"], f"{where}.added_in", _TF2_LINE, "TensorFlow 2 line (2.4)"
        )
        added[argument] = ArgumentAdded(
            name(fields["function"], f"{where}.function"),
            reader.required_string(fields["api"], f"{where}.api", _API, "function's name"),
            since,
            name(fields["older_name"], f"{where}.older_name") if "older_name" in fields else "",
            reader.required_string(fields["dropped"], f"{where}.dropped")
            if "dropped" in fields
            else "",
        )
    keras_kept, keras_ids = _single(reader, top, "metric_names_kept_in", sources)
    tf_kept, tf_ids = _single(reader, top, "tf_metric_names_kept_in", sources)
    return KerasApi(
        path,
        sources,
        _single(reader, top, "multi_backend_last", sources)[0],
        _single(reader, top, "get_updates_changed_in", sources)[0],
        _releases_by_name(reader, top, "optimizer_arguments", "argument", "added_in", sources),
        _releases_by_name(
            reader, top, "multi_backend_tensor_attributes", "attribute", "last_in", sources
        ),
        renamed,
        added,
        keras_kept,
        tf_kept,
        tuple(sources[sid].url for sid in (*keras_ids, *tf_ids)),
    )


@functools.cache
def keras_api(path: Optional[str] = None) -> KerasApi:
    """The Keras API table (the shipped file unless ``path``), read once per process."""
    return load_cached(
        path or str(KERAS_API_DATA), "Keras API table", KerasApiError, parse_keras_api, KerasApi
    )
