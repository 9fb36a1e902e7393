"""The shipped Keras API table (tfdoctor/data/keras_api.yaml): the releases its rows give the
Keras readings, every row's sources, and a planted violation answered in one line naming the
file, line and field. Also the one dotted-version parser the matrix and the CUDA layout share."""

from __future__ import annotations

import pytest

from tests.planted import planted_error
from tfdoctor import matrix
from tfdoctor.cuda_layout import cuda_knows
from tfdoctor.keras_api import KERAS_API_DATA, KerasApiError, keras_api, parse_keras_api
from tfdoctor.yamldoc import version_key

TEXT = KERAS_API_DATA.read_text(encoding="utf-8")


def test_the_shipped_rows_give_the_releases_the_readings_name() -> None:
    table = keras_api()
    assert table.multi_backend_last == "2.3"
    assert table.get_updates_changed_in == "2.0.7"
    assert dict(table.optimizer_arguments) == {"learning_rate": "2.3"}
    assert dict(table.tensor_attributes) == {"_keras_shape": "2.3"}
    renamed = {old: (r.renamed_to, r.counts_batches) for old, r in table.keras2_renamed.items()}
    assert renamed == {
        "nb_epoch": ("epochs", False),
        "samples_per_epoch": ("steps_per_epoch", True),
        "nb_val_samples": ("validation_steps", True),
        "val_samples": ("steps", True),
    }
    added = {
        kwarg: (a.function, a.added_in, a.before, a.older_name, a.public)
        for kwarg, a in table.tensorflow2_arguments.items()
    }
    assert added == {
        "steps_per_execution": (
            "compile",
            "2.4",
            "2.3",
            "experimental_steps_per_execution",
            True,
        ),
        "jit_compile": ("function", "2.5", "2.4", "experimental_compile", True),
        # A new argument of a public function: no older name.
        "output_signature": ("from_generator", "2.4", "2.3", "", True),
        # A new argument (no older name) of a function of TensorFlow's own modules.
        "batch_group_count": ("conv", "2.8", "2.7", "", False),
        "keep_original_batch_size": ("model_input_signature", "2.1", "2.0", "", False),
    }


def test_every_source_is_https_and_cited() -> None:
    table = keras_api()
    assert all(s.url.startswith("https://") for s in table.sources.values())
    # A source no row cites is a source the file does not need.
    assert all(TEXT.count(sid) >= 2 for sid in table.sources), table.sources


@pytest.mark.parametrize(
    "old, new, field",
    [
        (
            '  - argument: learning_rate\n    added_in: "2.3"',
            "  - argument: learning_rate\n    added_in: 2.3",
            "added_in",
        ),
        (
            "    renamed_to: epochs\n    source: keras-2.0.0\n",
            "    renamed_to: epochs\n    source: nowhere\n",
            "source",
        ),
        (
            "    renamed_to: epochs\n    source: keras-2.0.0\n",
            "    renamed_to: epochs\n",
            "source",
        ),
        ("  - attribute: _keras_shape", "  - attribute: 'keras shape'", "attribute"),
        (
            "    renamed_to: steps\n    counts_batches: true",
            "    renamed_to: steps\n    counts_batches: 1",
            "counts_batches",
        ),
        ('  release: "2.0.7"', '  release: "two"', "release"),
        # A TensorFlow 2 line with no 2.x line before it.
        (
            '    api: tf.function\n    added_in: "2.5"',
            '    api: tf.function\n    added_in: "2.0"',
            "added_in",
        ),
        # A function's name is TensorFlow's dotted path, public or inside the wheel.
        (
            "    api: tensorflow.compiler.tf2xla.python.xla.conv\n",
            "    api: xla.conv()\n",
            "api",
        ),
    ],
    ids=[
        "unquoted-release",
        "unknown-source",
        "row-without-source",
        "attribute-not-a-name",
        "flag-not-boolean",
        "release-not-a-release",
        "tensorflow-line-without-one-before",
        "api-not-a-dotted-name",
    ],
)
def test_a_malformed_row_is_refused_in_one_line_naming_the_field(
    old: str, new: str, field: str
) -> None:
    line, message = planted_error(parse_keras_api, KerasApiError, TEXT, old, new, "keras_api.yaml")
    assert line > 1 and field in message.split(":")[0]


def test_a_row_of_a_repeated_name_is_refused() -> None:
    row = "  - argument: nb_epoch\n    renamed_to: epochs\n    source: keras-2.0.0\n"
    _, message = planted_error(
        parse_keras_api, KerasApiError, TEXT, row, row + row, "keras_api.yaml"
    )
    assert "duplicate argument" in message


@pytest.mark.parametrize(
    "text, key",
    [
        ("525.60.13", (525, 60, 13)),
        ("11.2", (11, 2)),
        ("11", (11,)),
        ("2.16.0rc1", (2, 16, 0)),
        ("11.2.152", (11, 2, 152)),
        ("v11.2", ()),
    ],
)
def test_one_version_parser(text: str, key: tuple[int, ...]) -> None:
    assert version_key(text) == key
    # The matrix's name and the CUDA layout's are the same function, not two parsers.
    assert matrix.version_key is version_key


@pytest.mark.parametrize(
    "build, first, knows",
    [
        ("11.2", "11.1", True),
        ("11.0", "11.1", False),
        ("11.2", "11.8", True),  # minor version compatibility from 11.1 on
        ("10.0", "10.1", False),
        ("11", "11.8", True),  # a major alone: older only by its major
        ("10", "11.0", False),
        ("11.2.152", "12.0", False),
        ("", "12.0", True),  # nothing to compare
    ],
)
def test_cuda_knows_orders_releases_with_the_shared_parser(
    build: str, first: str, knows: bool
) -> None:
    assert cuda_knows(build, first) is knows
