"""Checks on facts the probes record where what is declared is wider than what runs: a
companion whose metadata admits a TensorFlow its code does not import under, and a driver
too old for the build's CUDA on a machine where TensorFlow still lists the GPU."""

from __future__ import annotations

import dataclasses

import pytest

from tests import factories as f
from tfdoctor.checks import run_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.checks.packages import check_dependency_pins
from tfdoctor.facts import CuInitFacts, DeviceFacts, Facts
from tfdoctor.findings import Finding, Severity
from tfdoctor.matrix import DEFAULT_COMPANIONS, MatrixError, load_companions, parse_companions

# --- a companion's code narrower than its metadata ------------------------------------------


def _spektral(tf_version: str, spektral: str, *declared: str) -> Facts:
    """A CPU machine with TensorFlow ``tf_version`` and Spektral ``spektral`` declaring
    ``declared`` (tensorflow>=2.1.0 by default, as its setup.py does)."""
    tf = f.pkg("tensorflow", tf_version, "numpy<1.19.0,>=1.16.0", top_level=("tensorflow",))
    requires = declared or ("tensorflow (>=2.1.0)", "networkx", "scipy")
    return f.facts(
        python=f.python(version="3.8.5"),
        packages=(tf, f.pkg("numpy", "1.18.5"), f.pkg("spektral", spektral, *requires)),
        driver=f.NO_DRIVER,
        cuda_libs=None,
        tensorflow=f.cpu_build(tf_version),
    )


def _mismatches(facts: Facts) -> list[Finding]:
    found = list(check_dependency_pins(CheckContext(facts, f.FIXTURE_MATRIX)))
    return [x for x in found if x.cause == "companion-mismatch"]


def test_a_companion_whose_code_needs_an_older_tensorflow_than_its_metadata_admits() -> None:
    # Spektral 0.6.0 declares tensorflow>=2.1.0 but imports gen_sparse_ops from where 2.3
    # no longer puts it: pip and `pip check` are silent, the import is not.
    [finding] = _mismatches(_spektral("2.3.0", "0.6.0"))
    assert finding.severity is Severity.WARNING
    assert "spektral 0.6.0" in finding.summary and "metadata admits it" in finding.summary
    assert "tensorflow<2.3,>=2.1.0" in finding.detail
    assert "danielegrattarola/spektral" in finding.detail  # the row's own sources
    assert finding.fix is not None
    assert "0.6.1" in finding.fix.text  # the smallest step that fits is named
    assert any('"spektral==' in c for c in finding.fix.commands)


@pytest.mark.parametrize(
    ("tf_version", "spektral"),
    [
        pytest.param("2.2.0", "0.6.0", id="the-tensorflow-its-code-was-written-for"),
        pytest.param("2.3.0", "0.6.1", id="the-release-with-the-fix"),
        pytest.param("2.3.0", "1.0.8", id="a-later-line"),
        pytest.param("2.3.0", "0.3.1", id="a-release-the-table-leaves-out"),
    ],
)
def test_a_companion_whose_code_works_with_the_installed_tensorflow_is_not_flagged(
    tf_version: str, spektral: str
) -> None:
    assert _mismatches(_spektral(tf_version, spektral)) == []


def test_a_companion_whose_own_declaration_excludes_tensorflow_is_one_finding() -> None:
    # Its metadata already excludes 2.3: the declared range speaks (an error), not twice.
    [finding] = _mismatches(_spektral("2.3.0", "0.6.0", "tensorflow (<2.3,>=2.1.0)"))
    assert finding.severity is Severity.ERROR
    assert "requires tensorflow<2.3,>=2.1.0" in finding.summary


def test_the_spektral_rows_cite_its_own_repository() -> None:
    table = load_companions()
    row = table.companions["spektral"]
    cited = {s for r in row.releases for s in r.sources} | set(row.sources)
    assert cited and all(
        "github.com/danielegrattarola/spektral/" in table.sources[s].url for s in cited
    )
    assert row.row_of("0.6.0") is not None and not row.row_of("0.6.0").admits("2.3.0")  # type: ignore[union-attr]
    assert row.row_of("0.6.1") is not None and row.row_of("0.6.1").admits("2.3.0")  # type: ignore[union-attr]


def _transformers(tf_version: str, transformers: str) -> Facts:
    """TensorFlow ``tf_version`` beside transformers ``transformers``, whose metadata names
    TensorFlow only in its ``tf`` extra (as its wheels from 3.2.0 to 4.1.1 do)."""
    facts = _spektral(tf_version, "0.6.1")
    requires = ("numpy", "tokenizers", "tensorflow (>=2.0) ; extra == 'tf'")
    assert facts.packages is not None
    kept = tuple(p for p in facts.packages if p.name != "spektral")
    return dataclasses.replace(
        facts, packages=(*kept, f.pkg("transformers", transformers, *requires))
    )


def test_transformers_whose_tf_models_need_a_newer_tensorflow() -> None:
    # From 3.2 its TF models read tf.keras.activations.swish as they are imported, which
    # TensorFlow 2.1 lacks: `import transformers` fails, though its extra says >=2.0.
    [finding] = _mismatches(_transformers("2.1.0", "3.2.0"))
    assert finding.severity is Severity.ERROR
    assert "transformers 3.2.0 requires tensorflow>=2.2" in finding.summary
    assert "huggingface/transformers" in finding.detail
    assert finding.fix is not None
    assert any('"tensorflow>=2.2"' in c for c in finding.fix.commands)


@pytest.mark.parametrize(
    ("tf_version", "transformers"),
    [
        pytest.param("2.2.0", "3.2.0", id="the-first-tensorflow-with-swish"),
        pytest.param("2.1.0", "3.1.0", id="before-its-tf-activations"),
        pytest.param("2.3.0", "4.2.0", id="the-floor-its-extra-declares"),
        pytest.param("2.1.0", "4.30.0", id="a-release-the-table-leaves-out"),
    ],
)
def test_transformers_with_a_tensorflow_its_code_imports_under_is_not_flagged(
    tf_version: str, transformers: str
) -> None:
    assert _mismatches(_transformers(tf_version, transformers)) == []


def test_libraries_built_on_tensorflow_are_a_table_of_their_own() -> None:
    # transformers is no companion (no release of it pairs with a TensorFlow line, which
    # explain reads the companion rows as): its rows are built_on, validated as companions'.
    table = load_companions()
    assert "transformers" in table.built_on and "transformers" not in table.companions
    row = table.built_on["transformers"].row_of("3.2.0")
    assert row is not None and row.admits("2.2.0") and not row.admits("2.1.0")
    text = DEFAULT_COMPANIONS.read_text(encoding="utf-8")
    twice = text.replace(
        "built_on:\n",
        "built_on:\n  - name: spektral\n    releases: []\n    source: spektral-setup\n",
        1,
    )
    with pytest.raises(MatrixError, match="built_on: a companion listed again"):
        parse_companions(twice, "c.yaml")
    unsorted = text.replace(
        '{release: "3.3", tensorflow: ">=2.2"', '{release: "3.1", tensorflow: ">=2.2"'
    )
    with pytest.raises(MatrixError, match=r"built_on\[transformers\]\.releases"):
        parse_companions(unsorted, "c.yaml")


# --- a driver too old for the build's CUDA, with the GPU listed ----------------------------


def _tf111(driver_version: str, cuda: str) -> Facts:
    """Anaconda's TensorFlow 1.11.0 built against CUDA 9.2 beside driver ``driver_version``
    (CUDA ``cuda``), listing GPU:0."""
    tf = f.pkg("tensorflow-gpu", "1.11.0", "numpy>=1.13.3", top_level=("tensorflow",))
    return f.facts(
        python=f.python(version="3.6.6"),
        packages=(tf, f.pkg("numpy", "1.15.2")),
        driver=f.driver(
            driver_version=driver_version,
            cuda_version=cuda,
            nvml_version=None,
            gpus=(
                dataclasses.replace(
                    f.driver().gpus[0], name="GeForce GTX 1080", compute_capability="6.1"
                ),
            ),
        ),
        cuda_libs=None,
        tensorflow=f.tensorflow(
            version="1.11.0",
            git_version=None,
            build_info={"cuda_version_number": "9.2", "cudnn_version_number": "7"},
            build_info_source="file",
            cuda_version="9.2",
            cudnn_version="7",
            compute_capabilities=(),
            devices=(
                DeviceFacts("/physical_device:CPU:0", "CPU"),
                DeviceFacts("/physical_device:GPU:0", "GPU", {"compute_capability": "6.1"}),
            ),
        ),
    )


def _driver_cuda(facts: Facts) -> Finding:
    found = run_checks(CheckContext(facts, f.FIXTURE_MATRIX))
    return next(x for x in found if x.id == "driver.cuda")


def test_a_driver_too_old_for_the_builds_cuda_stands_though_tensorflow_lists_the_gpu() -> None:
    # The listing asks the driver API alone; the CUDA 9.2 runtime refuses driver 390 where
    # TensorFlow creates the device.
    finding = _driver_cuda(_tf111("390.87", "9.1"))
    assert (finding.cause, finding.severity) == ("driver-too-old", Severity.ERROR)
    assert "390.87" in finding.summary and "396.26" in finding.summary
    assert finding.fix is not None and "driver" in finding.fix.text.lower()
    assert "396" in " ".join(finding.fix.commands)


def test_a_driver_new_enough_for_the_builds_cuda_is_not_flagged() -> None:
    finding = _driver_cuda(_tf111("396.26", "9.2"))
    assert not finding.cause and finding.severity is Severity.OK


@pytest.mark.parametrize(
    ("served", "severity", "cause"),
    [
        pytest.param("12.2", Severity.INFO, "", id="forward-compatibility-package-serves-12.2"),
        pytest.param("11.4", Severity.ERROR, "driver-too-old", id="the-driver-itself-11.4"),
    ],
)
def test_a_libcuda_that_serves_the_builds_cuda_on_an_older_driver(
    served: str, severity: Severity, cause: str
) -> None:
    # Driver 470 (CUDA 11.4) under TensorFlow 2.15's CUDA 12.2 build: where the libcuda the
    # loader picks answers CUDA 12.2 (NVIDIA's cuda-compat), the build's CUDA is served.
    cuinit = CuInitFacts("ok", 0, "CUDA_SUCCESS", "/usr/local/cuda/compat/libcuda.so.1", served, 1)
    facts = f.facts(driver=f.driver(driver_version="470.82.01", cuda_version="11.4"), cuinit=cuinit)
    finding = _driver_cuda(facts)
    assert (finding.cause, finding.severity) == (cause, severity)
    if severity is Severity.INFO:
        assert "serves CUDA 12.2" in finding.summary


# --- a library's code narrower than its metadata on standalone Keras --------------------------


def _stellargraph(keras: str, release: str = "0.7.1", *declared: str) -> Facts:
    """A CPU machine with TensorFlow 1.14.0 (older than every line of the matrix), standalone
    keras ``keras`` and StellarGraph ``release`` declaring ``declared`` (what 0.7.1's setup.py
    declares by default: keras>=2.2.4, tensorflow>=1.12)."""
    tf = f.pkg("tensorflow", "1.14.0", "numpy (<2.0,>=1.14.5)", top_level=("tensorflow",))
    requires = declared or ("keras (>=2.2.4)", "tensorflow (>=1.12)", "networkx (>=2.2)")
    return f.facts(
        python=f.python(version="3.6.9"),
        packages=(
            tf,
            f.pkg("numpy", "1.17.2"),
            f.pkg("keras", keras, "numpy>=1.9.1"),
            f.pkg("stellargraph", release, *requires),
        ),
        driver=f.NO_DRIVER,
        cuda_libs=None,
        tensorflow=f.cpu_build("1.14.0"),
    )


def test_a_library_whose_code_needs_an_older_keras_than_its_metadata_admits() -> None:
    # StellarGraph 0.7.1 declares keras>=2.2.4; 0.7.2, the same code, keras<2.2.5: Keras
    # 2.3.0 is admitted by pip and broken for the library, on a TensorFlow the matrix lacks.
    [finding] = _mismatches(_stellargraph("2.3.0"))
    assert finding.severity is Severity.WARNING
    assert "stellargraph 0.7.1" in finding.summary and "keras 2.3.0" in finding.summary
    assert "keras<2.2.5,>=2.2.3" in finding.detail
    assert "stellargraph/stellargraph" in finding.detail  # the row's own sources
    assert finding.fix is not None
    assert any('"keras<2.2.5,>=2.2.3"' in c for c in finding.fix.commands)


@pytest.mark.parametrize(
    ("keras", "release"),
    [
        pytest.param("2.2.4", "0.7.1", id="the-keras-its-code-works-with"),
        pytest.param("2.3.0", "0.6.1", id="a-release-the-table-leaves-out"),
    ],
)
def test_a_library_whose_code_works_with_the_installed_keras_is_not_flagged(
    keras: str, release: str
) -> None:
    assert _mismatches(_stellargraph(keras, release)) == []


def test_a_library_whose_own_keras_declaration_excludes_keras_is_one_finding() -> None:
    # Its metadata already excludes Keras 2.3.0: the declared range speaks, not twice.
    declared = ("keras (<2.2.5,>=2.2.3)", "tensorflow (>=1.12)")
    [finding] = _mismatches(_stellargraph("2.3.0", "0.7.1", *declared))
    assert "requires keras<2.2.5,>=2.2.3" in finding.summary


def test_a_keras_range_in_a_companion_row_is_validated() -> None:
    text = DEFAULT_COMPANIONS.read_text(encoding="utf-8").replace(
        'keras: "<2.2.5,>=2.2.3"', 'keras: "below 2.2.5"'
    )
    with pytest.raises(MatrixError, match="keras"):
        parse_companions(text, "companions.yaml")
