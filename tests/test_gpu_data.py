"""The shipped GPU table (tfdoctor/data/gpus.yaml): invariants of the data, and a planted
violation of each rule answered in one line naming the file, the line and the field."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from unittest import mock

import pytest

from tests.planted import line_of, planted_error
from tfdoctor import gpus
from tfdoctor.gpus import GPU_DATA, GpuData, GpuDataError, GpuModel, gpu_data, parse_gpu_data
from tfdoctor.yamldoc import DataSource

TEXT = GPU_DATA.read_text(encoding="utf-8")
DATA = gpu_data()


def source_gaps(data: GpuData) -> list[str]:
    """Sources no model, peak or the FP32 rate cites, and sources that are not https."""
    cited = {sid for model in data.models for sid in model.source}
    urls = {peak.source for model in data.models for peak in model.peaks} | {data.fp32_source}
    cited |= {s.id for s in data.sources.values() if s.url in urls}
    gaps = [f"{sid} is cited by nothing" for sid in sorted(set(data.sources) - cited)]
    return gaps + [
        f"{s.id} is not https" for s in data.sources.values() if not s.url.startswith("https://")
    ]


def shared_names(models: Sequence[GpuModel]) -> list[tuple[str, list[str]]]:
    """(model name, the models whose peak patterns it meets) where it meets more than one:
    first match wins within a model's variants; across models the order must not matter."""
    out = []
    for model in models:
        owners = sorted(
            {
                other.name
                for other in models
                for peak in other.peaks
                if re.search(peak.pattern, model.name, re.IGNORECASE)
            }
        )
        if len(owners) > 1:
            out.append((model.name, owners))
    return out


def peak_faults(models: Sequence[GpuModel]) -> list[str]:
    """Variants that give no figure (neither tensor core nor FP32), or no https source."""
    faults = [p.label for m in models for p in m.peaks if not p.peaks()]
    return faults + [
        f"{p.label} source" for m in models for p in m.peaks if not p.source.startswith("https://")
    ]


def _with_peak(**change: object) -> tuple[GpuModel, ...]:
    """The models, the first variant of the first model with peaks changed."""
    index, model = next((i, m) for i, m in enumerate(DATA.models) if m.peaks)
    peak = dataclasses.replace(model.peaks[0], **change)  # type: ignore[arg-type]
    models = list(DATA.models)
    models[index] = dataclasses.replace(model, peaks=(peak, *model.peaks[1:]))
    return tuple(models)


def test_every_source_is_cited() -> None:
    assert source_gaps(DATA) == []
    # Planted: a source nothing cites, a source that is not https.
    extra = DataSource("ghost", "Ghost", "https://example.org/ghost")
    assert source_gaps(dataclasses.replace(DATA, sources={**DATA.sources, "ghost": extra})) == [
        "ghost is cited by nothing"
    ]
    sid, source = next(iter(DATA.sources.items()))
    plain = dataclasses.replace(source, url="http" + source.url[len("https") :])
    assert f"{sid} is not https" in source_gaps(
        dataclasses.replace(DATA, sources={**DATA.sources, sid: plain})
    )


def test_no_model_name_meets_the_peaks_of_two_models() -> None:
    assert shared_names(DATA.models) == []
    # Planted: a variant pattern that meets every name.
    owner = next(m.name for m in DATA.models if m.peaks)
    shared = shared_names(_with_peak(pattern="."))
    assert shared and all(owner in owners for _, owners in shared)


def test_every_model_with_peaks_gives_a_tensor_core_or_float32_figure() -> None:
    assert peak_faults(DATA.models) == []
    # Planted: a variant without figures, one whose source is not https.
    none = _with_peak(label="blank", float32=None, tf32=None, float16=None, bfloat16=None)
    assert peak_faults(none) == ["blank"]
    assert peak_faults(_with_peak(label="plain", source="http://example.org")) == ["plain source"]


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        pytest.param(
            '  - {name: "A30", ',
            '  - {name: "NVIDIA A100", ',
            "gpus[NVIDIA A100].name: duplicate GPU model",
            id="duplicate-model",
        ),
        pytest.param(
            '  - {name: "A30", compute_capability: "8.0", source: cuda-gpus}',
            '  - {name: "A30", compute_capability: "8.0", source: cuda-gpu}',
            "gpus[A30].source: unknown source 'cuda-gpu'",
            id="unknown-source",
        ),
        pytest.param(
            '  - {name: "A30", compute_capability: "8.0", source: cuda-gpus}',
            '  - {name: "A30", compute_capability: "8.0"}',
            "gpus[",
            id="missing-source",
        ),
        pytest.param(
            '        match: "L40S"',
            '        match: "L40S("',
            "gpus[L40S].peaks[0].match: not a regular expression",
            id="bad-pattern",
        ),
        pytest.param(
            "tflops: {float32: 91.6,",
            "tflops: {float32: -91.6,",
            "gpus[L40S].peaks[0].tflops.float32: must be positive",
            id="negative-peak",
        ),
    ],
)
def test_a_planted_violation_is_one_line(old: str, new: str, message: str) -> None:
    line, error = planted_error(parse_gpu_data, GpuDataError, TEXT, old, new, "gpus.yaml")
    assert error.startswith(message), error
    assert line == line_of(TEXT, old), error


def test_a_new_gpu_is_a_row_of_data() -> None:
    row = '  - {name: "Example X1", compute_capability: "12.0", source: cuda-gpus}\n'
    data = parse_gpu_data(TEXT + row, "gpus.yaml")
    model = data.model("NVIDIA Example X1")
    assert model is not None and model.compute_capability == "12.0"


def test_a_name_is_keyed_once_not_once_per_model(monkeypatch: pytest.MonkeyPatch) -> None:
    # explain looks up every line of a text's head: a line that names no model costs one
    # normalisation and one search, not one of each per model of the table.
    data = gpu_data()
    assert data.model("NVIDIA A100-SXM4-80GB") is not None  # the table's keys are made
    spy = mock.Mock(wraps=gpus._gpu_key)
    monkeypatch.setattr(gpus, "_gpu_key", spy)
    lines = [f"2024-01-01 00:00:{i:02d}: I file.cc:12] step {i} loss 0.{i}" for i in range(50)]
    assert [data.model(line) for line in lines] == [None] * 50
    assert spy.call_count == 50
    # The longest name held still wins.
    found = data.model("NVIDIA GeForce RTX 3090 Ti, 24 GB")
    assert found is not None and found.name == "GeForce RTX 3090 Ti"
