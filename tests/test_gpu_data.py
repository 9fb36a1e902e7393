"""The shipped GPU table (tfdoctor/data/gpus.yaml): invariants of the data, and a planted
violation of each rule answered in one line naming the file, the line and the field."""

from __future__ import annotations

import re

import pytest

from tests.planted import line_of, planted_error
from tfdoctor.gpus import GPU_DATA, GpuDataError, gpu_data, parse_gpu_data

TEXT = GPU_DATA.read_text(encoding="utf-8")
DATA = gpu_data()


def test_every_source_is_cited() -> None:
    cited = {sid for model in DATA.models for sid in model.source}
    cited |= {s.id for s in DATA.sources.values() if s.url == DATA.fp32_source}
    urls = {peak.source for model in DATA.models for peak in model.peaks}
    cited |= {s.id for s in DATA.sources.values() if s.url in urls}
    assert cited == set(DATA.sources)
    assert all(s.url.startswith("https://") for s in DATA.sources.values())


def test_no_model_name_meets_the_peaks_of_two_models() -> None:
    # First match wins within a model's variants; across models the order must not matter.
    for model in DATA.models:
        owners = {
            other.name
            for other in DATA.models
            for peak in other.peaks
            if re.search(peak.pattern, model.name, re.IGNORECASE)
        }
        assert len(owners) <= 1, (model.name, owners)


def test_every_model_with_peaks_gives_a_tensor_core_or_float32_figure() -> None:
    for model in DATA.models:
        for peak in model.peaks:
            assert peak.peaks(), peak.label
            assert peak.source.startswith("https://"), peak.label


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
