"""NVIDIA GPU models read from ``data/gpus.yaml``: compute capability, data-sheet peaks, and
the FP32 throughput per SM that derives a peak where no data sheet is in the table.

One table serves ``tfdoctor matrix --gpu NAME`` (through :class:`tfdoctor.matrix.Matrix`) and
the smoke test's fraction of peak. It is validated once per process (and cached across
processes by its bytes); a new GPU is a data change. Imports nothing from the package but the
YAML reader and the record base.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from tfdoctor.records import Record, record
from tfdoctor.yamldoc import SOURCE_ID, DataSource, NodeReader, compose, is_null, load_cached

if TYPE_CHECKING:
    from yaml import Node

#: The GPU table shipped inside the package.
GPU_DATA = Path(__file__).parent / "data" / "gpus.yaml"
GPU_DATA_VERSION = 1

TERA = 1e12
#: The precisions a peak row may give, in order.
PRECISIONS = ("float32", "tf32", "float16", "bfloat16")


class GpuDataError(ValueError):
    """A GPU data file that cannot be used: ``FILE:LINE: FIELD: what is wrong``."""


@record
class GpuPeak(Record):
    """One GPU variant's peak TFLOP/s per precision, dense, from the cited document."""

    #: Regular expression on the name TensorFlow reports (``NVIDIA H100 80GB HBM3``).
    pattern: str
    label: str
    float32: Optional[float]
    tf32: Optional[float]
    float16: Optional[float]
    bfloat16: Optional[float]
    #: The data sheet's URL.
    source: str

    def peaks(self) -> dict[str, float]:
        """FLOP/s per precision, only those the source gives."""
        values = {
            "float32": self.float32,
            "tf32": self.tf32,
            "float16": self.float16,
            "bfloat16": self.bfloat16,
        }
        return {k: v * TERA for k, v in values.items() if v is not None}


@record
class GpuModel(Record):
    """An NVIDIA GPU model, its compute capability, and its variants' data-sheet peaks."""

    name: str
    compute_capability: str
    source: tuple[str, ...]
    peaks: tuple[GpuPeak, ...] = ()


@record
class GpuData(Record):
    """The GPU table: sources, models (in file order) and the FP32 rate per SM."""

    path: str
    sources: Mapping[str, DataSource]
    models: tuple[GpuModel, ...]
    #: Compute capability column (``8.6``, ``7.x``) -> FP32 results per clock per SM.
    fp32_results_per_clock: Mapping[str, int]
    #: Where those rates come from (a URL).
    fp32_source: str

    @functools.cached_property
    def _keyed(self) -> tuple[tuple[str, GpuModel], ...]:
        """Each model with its name as :func:`_gpu_key` writes it, in file order."""
        return tuple((_gpu_key(model.name), model) for model in self.models)

    @functools.cached_property
    def _any_key(self) -> re.Pattern[str]:
        """One search for every model's key as a word: a name holding none names no model.
        A line of a log is searched once, not once per model (explain reads a text's lines)."""
        keys = sorted({key for key, _ in self._keyed}, key=len, reverse=True)
        words = "|".join(re.escape(key) for key in keys)
        return re.compile(rf"(?:^|[^a-z0-9])(?:{words})(?:$|[^a-z0-9])")

    def model(self, name: str) -> Optional[GpuModel]:
        """A model by name, ignoring case, spaces and an ``NVIDIA``/``GeForce`` prefix."""
        want = _gpu_key(name)
        for key, model in self._keyed:
            if key == want:
                return model
        if self._any_key.search(want) is None:
            return None
        # Names from the driver carry more words ("NVIDIA A100-SXM4-80GB"): the longest
        # model name contained in the given one.
        best: Optional[GpuModel] = None
        best_key = ""
        for key, model in self._keyed:
            if re.search(rf"(^|[^a-z0-9]){re.escape(key)}($|[^a-z0-9])", want) and (
                best is None or len(key) > len(best_key)
            ):
                best, best_key = model, key
        return best

    def peak(self, name: Optional[str]) -> Optional[GpuPeak]:
        """The first peak row whose pattern matches a name as TensorFlow reports it."""
        if not name:
            return None
        for model in self.models:
            for row in model.peaks:
                if re.search(row.pattern, name, re.IGNORECASE):
                    return row
        return None


def _gpu_key(name: str) -> str:
    key = name.lower().replace("nvidia", " ").replace("geforce", " ").replace("tesla", " ")
    return " ".join(key.replace("-", " ").split())


_CC = re.compile(r"^\d+\.\d+$")
_COLUMN = re.compile(r"^\d+\.(\d+|x)$")


def parse_gpu_data(text: str, path: str = "<gpu data>") -> GpuData:
    """Validate GPU data YAML ``text`` (``path`` names it in errors)."""
    root = compose(text, path, "GPU data", GpuDataError)
    reader = NodeReader(path, GpuDataError)
    top = reader.mapping(
        root, "gpus", ("schema_version", "sources", "fp32_results_per_clock", "gpus")
    )
    reader.schema_version(top["schema_version"], GPU_DATA_VERSION)
    sources = reader.sources(top["sources"], SOURCE_ID, DataSource)
    rates = reader.mapping(
        top["fp32_results_per_clock"], "fp32_results_per_clock", ("source", "columns")
    )
    # The first source is the one a derived peak cites.
    rate_source = reader.source_ids(rates["source"], "fp32_results_per_clock.source", sources)[0]
    columns: dict[str, int] = {}
    for column, node in reader.mapping(rates["columns"], "fp32_results_per_clock.columns").items():
        where = f"fp32_results_per_clock.columns.{column}"
        if not _COLUMN.match(column):
            raise reader.error(node, where, "not a compute capability column (X.Y or X.x)")
        columns[column] = reader.integer(node, where)
    models: list[GpuModel] = []
    for where, name, fields in reader.keyed_rows(
        top["gpus"], "gpus", "name", ("compute_capability", "source"), ("peaks",)
    ):
        if any(_gpu_key(name) == _gpu_key(m.name) for m in models):
            raise reader.error(fields["name"], f"{where}.name", "duplicate GPU model")
        models.append(_model(reader, where, name, fields, sources))
    return GpuData(path, sources, tuple(models), columns, sources[rate_source].url)


def _model(
    reader: NodeReader,
    where: str,
    name: str,
    fields: Mapping[str, Node],
    sources: Mapping[str, DataSource],
) -> GpuModel:
    capability = reader.required_string(
        fields["compute_capability"], f"{where}.compute_capability", _CC, "compute capability"
    )
    peaks = tuple(
        _peak(reader, peak_node, f"{where}.peaks[{j}]", sources)
        for j, peak_node in enumerate(
            reader.sequence(fields["peaks"], f"{where}.peaks") if "peaks" in fields else ()
        )
    )
    return GpuModel(
        name, capability, reader.source_ids(fields["source"], f"{where}.source", sources), peaks
    )


def _peak(reader: NodeReader, node: Node, where: str, sources: Mapping[str, DataSource]) -> GpuPeak:
    fields = reader.mapping(node, where, ("label", "match", "tflops", "source"), ("note",))
    pattern = reader.required_string(fields["match"], f"{where}.match")
    try:
        re.compile(pattern)
    except re.error as exc:
        raise reader.error(
            fields["match"], f"{where}.match", f"not a regular expression: {exc}"
        ) from None
    tflops = reader.mapping(fields["tflops"], f"{where}.tflops", PRECISIONS)
    values = {k: _tflops(reader, n, f"{where}.tflops.{k}") for k, n in tflops.items()}
    if "note" in fields:
        reader.required_string(fields["note"], f"{where}.note")
    # The first source is the data sheet the smoke report cites.
    source = reader.source_ids(fields["source"], f"{where}.source", sources)[0]
    return GpuPeak(
        pattern=pattern,
        label=reader.required_string(fields["label"], f"{where}.label"),
        float32=values["float32"],
        tf32=values["tf32"],
        float16=values["float16"],
        bfloat16=values["bfloat16"],
        source=sources[source].url,
    )


def _tflops(reader: NodeReader, node: Node, field: str) -> Optional[float]:
    """A positive number of TFLOP/s, or null where the data sheet gives none."""
    from yaml import ScalarNode  # noqa: PLC0415 - yaml loads with a data file

    if is_null(node):
        return None
    if not isinstance(node, ScalarNode) or node.tag not in (
        "tag:yaml.org,2002:float",
        "tag:yaml.org,2002:int",
    ):
        raise reader.error(node, field, "expected a number of TFLOP/s or null")
    value = float(node.value)
    if not value > 0:
        raise reader.error(node, field, "must be positive")
    return value


@functools.cache
def gpu_data(path: Optional[str] = None) -> GpuData:
    """The GPU table (the shipped file unless ``path``), read once per process."""
    return load_cached(path or str(GPU_DATA), "gpu-data", GpuDataError, parse_gpu_data, GpuData)
