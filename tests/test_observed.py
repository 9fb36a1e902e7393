"""Observed beats inferred, as a property of every facts document on file.

Where TensorFlow itself showed something working (it imported, it listed a GPU, the smoke
test ran kernels on the GPU), no finding may say the opposite as a warning or an error: a
finding whose cause the observation refutes (``Cause.contradicted_by``) is at most a note.
The property runs over every facts document under tests/data (held-out ones included, which
it loads without printing them) and the factories, as recorded and in variants where
TensorFlow is made to show more: that it imports, that it lists every GPU, that the smoke
test's kernels ran on them.
"""

from __future__ import annotations

import dataclasses
import gzip
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from tests import factories as f
from tfdoctor import causes
from tfdoctor.causes.observed import overrule
from tfdoctor.checks import run_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.checks.driver import check_driver_cuda
from tfdoctor.explain import explain
from tfdoctor.explain.reader import split_text
from tfdoctor.facts import (
    DeviceFacts,
    Facts,
    GpuFacts,
    SmokeDevice,
    SmokeFacts,
    SmokeResult,
    TensorFlowFacts,
    facts_from_json,
)
from tfdoctor.findings import Finding, Severity
from tfdoctor.machine import LOG_OBSERVATIONS, OBSERVATION_KINDS, Machine
from tfdoctor.signatures import load_signatures

DATA = Path(__file__).parent / "data"
#: Where facts documents live: bare, inside a corpus case (``facts``) or inside a report.
FACT_DIRS = ("reports", "real_failures", "healthy", "real_failures_unseen", "golden", "gpu_setups")


def _document(path: Path) -> Any:
    if path.name.endswith(".gz"):
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            return json.load(handle)
    return json.loads(path.read_text(encoding="utf-8"))


def _facts_files() -> Iterator[tuple[str, Path]]:
    for folder in FACT_DIRS:
        for path in sorted((DATA / folder).rglob("*.json*")):
            if path.name.endswith((".json", ".json.gz")):
                yield f"{folder}/{path.name}", path


def _facts_of(doc: Any) -> Any:
    """The facts document inside ``doc``, or None when it holds none."""
    if isinstance(doc, dict) and isinstance(doc.get("facts"), dict):
        doc = doc["facts"]
    return doc if isinstance(doc, dict) and "collected_at" in doc else None


def _machines() -> list[Any]:
    params = []
    for name, path in _facts_files():
        doc = _facts_of(_document(path))
        if doc is not None:
            held_out = path.name.endswith(".gz")
            params.append(pytest.param(path, held_out, id=name))
    return params


MACHINES = _machines()
FACTORY_MACHINES = {"factory-gpu": f.facts(), "factory-cpu-only": f.cpu_only_machine()}


# --- the variants: TensorFlow made to show more ------------------------------------------------


def _imports(facts: Facts) -> Facts:
    tf = facts.tensorflow or TensorFlowFacts(status="ok", interpreter="python")
    installed = Machine(facts, None).tf
    # TensorFlow's own module answers with its version (a shadow module has none).
    version = tf.version or (installed.version if installed is not None else "2.15.1")
    tf = dataclasses.replace(
        tf,
        status="ok",
        version=version,
        error_type=None,
        error_message=None,
        signal=None,
        returncode=0,
        stderr_tail="",  # what a failed import printed is not what a good one prints
    )
    return dataclasses.replace(facts, tensorflow=tf)


def _gpu_names(facts: Facts) -> list[tuple[int, str | None]]:
    gpus = facts.driver.gpus if facts.driver is not None else ()
    return [(g.index, g.compute_capability) for g in gpus] or [(0, None)]


def _lists_every_gpu(facts: Facts) -> Facts:
    facts = _imports(facts)
    assert facts.tensorflow is not None
    devices = tuple(
        DeviceFacts(f"/physical_device:GPU:{i}", "GPU", {"compute_capability": cap} if cap else {})
        for i, cap in _gpu_names(facts)
    )
    tf = dataclasses.replace(
        facts.tensorflow,
        devices=(DeviceFacts("/physical_device:CPU:0", "CPU"), *devices),
        is_cuda_build=True,
    )
    return dataclasses.replace(facts, tensorflow=tf)


#: Every kernel the smoke child plans on a GPU (smoke_kernels.plan_for), each run and right.
_PLAN = (
    ("first-op", "float32"),
    ("matmul", "float32"),
    ("conv2d-forward", "float32"),
    ("conv2d-backward", "float32"),
    ("xla-dense", "float32"),
    ("train-step", "eager"),
)


def _kernels_ran(facts: Facts) -> Facts:
    facts = _lists_every_gpu(facts)
    devices = []
    for i, cap in _gpu_names(facts):
        name = f"/device:GPU:{i}"
        results = tuple(
            SmokeResult(kernel, dtype, name, placed_on=name, ok=True) for kernel, dtype in _PLAN
        )
        devices.append(SmokeDevice(name, "GPU", compute_capability=cap, results=results))
    smoke = SmokeFacts("ok", "quick", "python", devices=tuple(devices))
    return dataclasses.replace(facts, smoke=smoke)


#: Variant name -> how it is made, and the observations it must produce (so that the property
#: is never checked vacuously).
VARIANTS: dict[str, tuple[Callable[[Facts], Facts], tuple[str, ...]]] = {
    "as-recorded": (lambda facts: facts, ()),
    "imports": (_imports, ("tf-imports",)),
    "lists-every-gpu": (_lists_every_gpu, ("tf-imports", "tf-lists-gpu", "tf-lists-every-gpu")),
    "kernels-ran": (_kernels_ran, tuple(set(OBSERVATION_KINDS) - LOG_OBSERVATIONS)),
}


# --- the property ------------------------------------------------------------------------------


def violations(facts: Facts, findings: Sequence[Finding]) -> list[str]:
    """Each finding above a note whose cause an observation on ``facts`` refutes."""
    seen = Machine(facts, f.FIXTURE_MATRIX).observations
    out = []
    for finding in findings:
        cause = causes.CAUSES.get(finding.cause)
        if cause is None or finding.severity.rank <= Severity.INFO.rank:
            continue
        against = [kind for kind in cause.contradicted_by if kind in seen]
        if against:
            out.append(f"{finding.id} {finding.severity.value} ({finding.cause}) vs {against}")
    return out


def _judge(facts: Facts) -> tuple[Finding, ...]:
    plain = run_checks(CheckContext(facts, f.FIXTURE_MATRIX))
    gated = run_checks(CheckContext(facts, f.FIXTURE_MATRIX, require_gpu=True))
    return plain + gated


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize(("path", "held_out"), MACHINES)
def test_no_finding_contradicts_what_tensorflow_showed(
    path: Path, held_out: bool, variant: str
) -> None:
    make, kinds = VARIANTS[variant]
    facts = make(facts_from_json(_facts_of(_document(path))))
    seen = Machine(facts, f.FIXTURE_MATRIX).observations
    assert set(kinds) <= set(seen), (kinds, sorted(seen))
    found = violations(facts, _judge(facts))
    # A held-out machine's findings are not shown: only that the property holds there.
    assert found == [], len(found) if held_out else found


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("name", list(FACTORY_MACHINES))
def test_no_finding_contradicts_what_tensorflow_showed_on_the_factories(
    name: str, variant: str
) -> None:
    make, kinds = VARIANTS[variant]
    facts = make(FACTORY_MACHINES[name])
    assert set(kinds) <= set(Machine(facts, f.FIXTURE_MATRIX).observations)
    assert violations(facts, _judge(facts)) == []


def test_every_kind_of_facts_document_is_covered() -> None:
    held_out = [p for p in MACHINES if p.values[1]]
    folders = {p.id.split("/")[0] for p in MACHINES if p.id is not None}
    assert folders == set(FACT_DIRS), folders
    assert len(MACHINES) >= 75 and held_out, (len(MACHINES), len(held_out))


# --- the property can fail -----------------------------------------------------------------


def test_a_planted_contradiction_is_caught() -> None:
    facts = f.facts()  # TensorFlow lists GPU:0
    planted = causes.finding(
        "cuda.libraries",
        Severity.ERROR,
        causes.gpu.CUDA_LIBS_MISSING,
        "Missing CUDA libraries TensorFlow needs: cudnn",
    )
    assert violations(facts, [planted]) == [
        "cuda.libraries error (cuda-libs-missing) vs ['tf-lists-gpu']"
    ]
    note = overrule(planted, Machine(facts, f.FIXTURE_MATRIX))
    assert violations(facts, [note]) == []
    assert note.severity is Severity.INFO
    assert note.summary == (
        "TensorFlow lists GPU:0 although missing CUDA libraries TensorFlow needs: cudnn"
    )


def test_a_check_called_past_the_rule_is_caught() -> None:
    # driver.cuda alone infers from the matrix that driver 470 cannot run CUDA 12.2; the smoke
    # test's kernels ran on the GPU all the same (NVIDIA's forward compatibility package does
    # that).
    facts = _kernels_ran(f.facts(driver=f.driver(driver_version="470.82.01", cuda_version="11.4")))
    ctx = CheckContext(facts, f.FIXTURE_MATRIX)
    raw = list(check_driver_cuda(ctx))
    assert violations(facts, raw) == ["driver.cuda error (driver-too-old) vs ['gpu-kernels-ran']"]
    [judged] = [x for x in run_checks(ctx) if x.id == "driver.cuda"]
    assert judged.severity is Severity.INFO
    assert judged.summary.startswith("The smoke test's kernels ran on GPU:0 although driver 470")
    assert judged.fix == raw[0].fix


def test_a_listed_gpu_does_not_refute_a_driver_too_old_for_the_builds_cuda() -> None:
    # TensorFlow lists its GPUs through the driver API alone; the CUDA runtime the build links
    # meets the driver only where a device is created, and refuses an older one there.
    facts = f.facts(driver=f.driver(driver_version="470.82.01", cuda_version="11.4"))
    assert "tf-lists-gpu" in Machine(facts, f.FIXTURE_MATRIX).observations
    [judged] = [
        x for x in run_checks(CheckContext(facts, f.FIXTURE_MATRIX)) if x.id == "driver.cuda"
    ]
    assert (judged.cause, judged.severity) == ("driver-too-old", Severity.ERROR)
    assert judged.fix is not None and "driver" in judged.fix.text


# --- the relation and the observations ----------------------------------------------------------


def relation_faults(
    relation: Mapping[str, Sequence[str]], catalogue: Mapping[str, causes.Cause]
) -> list[str]:
    """Observation kinds the machine never records, cause ids outside the catalogue, and
    named causes whose entry does not say what contradicts them."""
    faults = [f"observation {k}" for k in sorted(set(relation) - set(OBSERVATION_KINDS))]
    named = sorted({cid for ids in relation.values() for cid in ids})
    faults += [f"cause {cid}" for cid in named if cid not in catalogue]
    return faults + [
        f"{cid} not marked"
        for cid in named
        if cid in catalogue and not catalogue[cid].contradicted_by
    ]


def test_the_relation_names_only_causes_and_observations_that_exist() -> None:
    assert relation_faults(causes.CONTRADICTED_BY, causes.CAUSES) == []
    # Planted: an observation nobody records, a cause nobody defined, an entry left unmarked.
    kind, (cid, *_) = next(iter(causes.CONTRADICTED_BY.items()))
    assert relation_faults({"seen-by-eye": (cid,)}, causes.CAUSES) == ["observation seen-by-eye"]
    assert relation_faults({kind: ("no-such-cause",)}, causes.CAUSES) == ["cause no-such-cause"]
    unmarked = {**causes.CAUSES, cid: dataclasses.replace(causes.CAUSES[cid], contradicted_by=())}
    assert relation_faults({kind: (cid,)}, unmarked) == [f"{cid} not marked"]


def test_a_listed_gpu_refutes_no_claim_about_one_kind_of_kernel() -> None:
    # cuDNN of the wrong version still lists the GPU: only a convolution that ran refutes it.
    facts = f.facts(
        cuda_libs=f.cuda_libs(
            f.lib("cudart", "libcudart.so.12", f.pip_cand("cuda_runtime/lib/x.so", "12.2")),
            f.lib("cudnn", "libcudnn.so.8", f.pip_cand("cudnn/lib/libcudnn.so.8", "8.6.0")),
        )
    )
    [before] = [x for x in run_checks(CheckContext(facts, f.FIXTURE_MATRIX)) if x.cause]
    assert (before.cause, before.severity) == ("cudnn-version-mismatch", Severity.ERROR)
    ran = _kernels_ran(facts)
    [after] = [x for x in run_checks(CheckContext(ran, f.FIXTURE_MATRIX)) if x.cause]
    assert after.severity is Severity.INFO
    assert after.summary.startswith("The smoke test's convolutions (cuDNN) ran on GPU:0 although")


def test_only_a_kernel_run_refutes_a_build_without_code_for_the_gpu() -> None:
    # A 5.0 GPU under a build with sm_35, sm_52 and compute_70: TensorFlow lists it, and no
    # kernel of the build runs there (PTX compiles only for its capability or newer).
    gpu = GpuFacts(0, "GeForce MX", compute_capability="5.0")
    listed = (DeviceFacts("/physical_device:GPU:0", "GPU", {"compute_capability": "5.0"}),)
    facts = f.facts(
        tensorflow=f.tensorflow(
            compute_capabilities=("sm_35", "sm_52", "compute_70"), devices=listed
        ),
        driver=f.driver(gpus=(gpu,)),
    )

    def verdict(of: Facts) -> Finding:
        found = run_checks(CheckContext(of, f.FIXTURE_MATRIX))
        return next(x for x in found if x.cause == causes.gpu.GPU_ARCH_UNSUPPORTED)

    assert verdict(facts).severity is Severity.ERROR
    ran = verdict(_kernels_ran(facts))
    assert ran.severity is Severity.INFO
    assert ran.summary.startswith("The smoke test's kernels ran on GPU:0 although")


def test_a_gpu_the_driver_lists_but_tensorflow_ignores_is_not_covered() -> None:
    # TensorFlow lists one GPU (compute capability 8.0); the driver's second, a K40 (3.5), is
    # missing from its list: "the wheel ignores this GPU" stands.
    k40 = dataclasses.replace(
        f.driver().gpus[0], index=1, name="Tesla K40", compute_capability="3.5"
    )
    facts = f.facts(driver=f.driver(gpus=(f.driver().gpus[0], k40)))
    seen = Machine(facts, f.FIXTURE_MATRIX).observations
    assert "tf-lists-gpu" in seen and "tf-lists-every-gpu" not in seen


def test_the_gpus_tensorflow_lists_are_read_once_for_every_reader() -> None:
    machine = Machine(f.facts(), f.FIXTURE_MATRIX)
    assert [d.name for d in machine.tf_listed_gpus] == ["/physical_device:GPU:0"]
    assert machine.observations["tf-lists-gpu"] == "TensorFlow lists GPU:0"
    # Some other module named tensorflow (no version) lists no GPU of TensorFlow's.
    shadow = f.facts(tensorflow=f.tensorflow(version=None))
    assert Machine(shadow, f.FIXTURE_MATRIX).tf_listed_gpus == ()
    assert "tf-lists-gpu" not in Machine(shadow, f.FIXTURE_MATRIX).observations


def test_a_smoke_test_that_failed_a_kernel_shows_no_kernel_running() -> None:
    facts = _kernels_ran(f.facts())
    assert facts.smoke is not None
    [device] = facts.smoke.devices
    failed = dataclasses.replace(device.results[4], status="error", ok=False, error="ptxas")
    broken = (*device.results[:4], failed, *device.results[5:])
    smoke = dataclasses.replace(facts.smoke, devices=(dataclasses.replace(device, results=broken),))
    seen = Machine(dataclasses.replace(facts, smoke=smoke), f.FIXTURE_MATRIX).observations
    assert "gpu-conv-ran" in seen
    assert "gpu-xla-ran" not in seen and "gpu-kernels-ran" not in seen


@pytest.mark.parametrize(
    ("summary", "note"),
    [
        ("Missing CUDA libraries", "TensorFlow lists GPU:0 although missing CUDA libraries"),
        (
            "TensorFlow 2.15 has no code",
            "TensorFlow lists GPU:0 although TensorFlow 2.15 has no code",
        ),
        ("Python 3.7: no wheel", "TensorFlow lists GPU:0 although Python 3.7: no wheel"),
        ("NVIDIA driver too old", "TensorFlow lists GPU:0 although NVIDIA driver too old"),
    ],
)
def test_the_note_reads_as_one_sentence_and_keeps_names(summary: str, note: str) -> None:
    finding = causes.finding(
        "cuda.libraries", Severity.ERROR, causes.gpu.CUDA_LIBS_MISSING, summary
    )
    assert overrule(finding, Machine(f.facts(), f.FIXTURE_MATRIX)).summary == note


def test_an_import_that_loaded_a_shadow_is_no_observation() -> None:
    # A module named tensorflow without a version is not TensorFlow: its "import" refutes
    # nothing (tf-shadowed-module stands).
    shadow = f.tensorflow(version=None, build_info={}, is_cuda_build=None, devices=())
    assert Machine(f.facts(tensorflow=shadow), None).observations == {}


# --- explain with a machine's facts: what the log claims falls to what TensorFlow showed ---

DLOPEN_CUDNN = (
    "2022-03-01 12:00:00.000000: W tensorflow/stream_executor/platform/default/dso_loader.cc:64]"
    " Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared"
    " object file: No such file or directory"
)


def _explained(facts: Facts | None) -> Finding:
    report = explain([split_text(DLOPEN_CUDNN)], load_signatures(), f.FIXTURE_MATRIX, facts)
    return next(x for x in report.findings if x.cause == "cuda-libs-missing")


def test_a_logs_claim_is_a_note_where_the_machine_shows_tensorflow_using_the_gpu() -> None:
    # The machine's facts: TensorFlow imported and lists GPU:0.
    finding = _explained(f.facts())
    assert finding.severity is Severity.INFO
    assert finding.summary.startswith("TensorFlow lists GPU:0 although ")
    assert "what TensorFlow did wins over what tfdoctor inferred" in finding.detail
    assert "libcudnn.so.8" in finding.detail  # the log's line is still cited
    assert finding.fix is not None  # kept for the day it stops working


def test_a_logs_claim_stands_where_the_machine_shows_nothing_against_it() -> None:
    # The log alone, and a machine whose TensorFlow lists no GPU: the claim is an error.
    assert _explained(None).severity is Severity.ERROR
    no_gpu = f.facts(
        tensorflow=f.tensorflow(devices=(DeviceFacts("/physical_device:CPU:0", "CPU"),))
    )
    assert _explained(no_gpu).severity is Severity.ERROR


# --- explain, a log alone: a GPU TensorFlow showed beside an answer that lists none ----------

#: TensorFlow's own lines showing a GPU device: created (gpu_device.cc in 2.x and 1.x, and the
#: bare head of the line without the GPU's description) or listed by a device query.
GPU_SHOWN = {
    "created-2x": "2024-03-01 10:00:00.000000: I tensorflow/core/common_runtime/gpu/"
    "gpu_device.cc:1928] Created device /job:localhost/replica:0/task:0/device:GPU:0 with "
    "22282 MB memory:  -> device: 0, name: NVIDIA RTX A5000, pci bus id: 0000:65:00.0, "
    "compute capability: 8.6",
    "created-1x": "2018-05-02 09:00:00.000000: I tensorflow/core/common_runtime/gpu/"
    "gpu_device.cc:1041] Created TensorFlow device (/job:localhost/replica:0/task:0/"
    "device:GPU:0 with 10405 MB memory) -> physical GPU (device: 0, name: GeForce GTX 1080 Ti, "
    "pci bus id: 0000:02:00.0, compute capability: 6.1)",
    "created-bare": "2024-03-01 10:00:00.000000: I tensorflow/core/common_runtime/gpu/"
    "gpu_device.cc:1928] Created device /job:localhost/replica:0/task:0/device:GPU:0 with "
    "22282 MB memory",
    "listed": ">>> tf.config.list_physical_devices('GPU')\n"
    "[PhysicalDevice(name='/physical_device:GPU:0', device_type='GPU')]",
}
#: TensorFlow's answers that list no GPU the machine has.
NO_GPU_ANSWERS = {
    "list-empty": ">>> tf.config.list_physical_devices('GPU')\n[]",
    "count-zero": "Num GPUs Available:  0",
    "is-gpu-available": ">>> tf.test.is_gpu_available()\nFalse",
}
#: Answers of the devices the program chose, which list none in the very process that found
#: a GPU: ``tf.config.set_visible_devices([], 'GPU')`` empties the logical and visible lists,
#: a session's ``device_count={'GPU': 0}`` its device mapping (direct_session.cc prints
#: ``Device mapping: no known devices.`` where no device of the session has a description).
CHOSEN_NONE = {
    "logical": ">>> tf.config.set_visible_devices([], 'GPU')\n"
    ">>> tf.config.list_logical_devices('GPU')\n[]",
    "visible": ">>> tf.config.set_visible_devices([], 'GPU')\n"
    ">>> tf.config.get_visible_devices('GPU')\n[]",
    "placement": "Device mapping: no known devices.",
}
#: ``tf.test.is_built_with_cuda()`` answering False: a build without CUDA, listing no GPU alone.
NOT_BUILT_WITH_CUDA = ">>> tf.test.is_built_with_cuda()\nFalse"


def _explain_log(text: str) -> tuple[Finding, ...]:
    return explain([split_text(text)], load_signatures(), f.FIXTURE_MATRIX, None).findings


def log_violations(findings: Sequence[Finding], seen: Sequence[str]) -> list[str]:
    """Each finding above a note whose cause one of the log's observations (kinds) refutes."""
    return [
        f"{x.id} {x.severity.value} ({x.cause}) vs {kinds}"
        for x in findings
        if x.severity.rank > Severity.INFO.rank
        and x.cause in causes.CAUSES
        and (kinds := [k for k in causes.CAUSES[x.cause].contradicted_by if k in seen])
    ]


@pytest.mark.parametrize("first", ["gpu-first", "answer-first"])
@pytest.mark.parametrize("answer", list(NO_GPU_ANSWERS))
@pytest.mark.parametrize("shown", list(GPU_SHOWN))
def test_no_finding_of_explain_contradicts_a_gpu_tensorflow_showed(
    shown: str, answer: str, first: str
) -> None:
    # Two processes or interpreters in one paste: both TensorFlow's answers stand, the GPU it
    # showed outranks the inference from the empty one, which is a note that names both.
    lines = [GPU_SHOWN[shown], NO_GPU_ANSWERS[answer]]
    found = _explain_log("\n".join(lines if first == "gpu-first" else lines[::-1]) + "\n")
    assert log_violations(found, ["tf-lists-gpu"]) == []
    assert [x.severity for x in found if x.severity.rank > Severity.INFO.rank] == []
    [note] = [x for x in found if x.summary.startswith("The log shows TensorFlow with a GPU")]
    assert GPU_SHOWN[shown].splitlines()[-1] in note.detail
    assert NO_GPU_ANSWERS[answer].splitlines()[-1] in note.detail
    assert "more than one run" in note.detail or "a later run listed none" in note.detail
    # The order the log shows: a run after the GPU that lists none is the later one.
    assert ("a later run listed none" in note.detail) is (first == "gpu-first")


@pytest.mark.parametrize("chosen", list(CHOSEN_NONE))
@pytest.mark.parametrize("shown", list(GPU_SHOWN))
def test_a_program_choosing_no_gpu_after_tensorflow_showed_one_is_no_finding(
    shown: str, chosen: str
) -> None:
    # One process: TensorFlow found the GPU, the program then chose not to use it.
    found = _explain_log(f"{GPU_SHOWN[shown]}\n{CHOSEN_NONE[chosen]}\n")
    assert [x.id for x in found if x.cause in causes.CAUSES] == []


@pytest.mark.parametrize("shown", list(GPU_SHOWN))
def test_a_build_without_cuda_beside_a_gpu_tensorflow_showed_is_no_contradiction(
    shown: str,
) -> None:
    # A pluggable device (tensorflow-metal, DirectML) is a GPU of a build without CUDA.
    found = _explain_log(f"{NOT_BUILT_WITH_CUDA}\n{GPU_SHOWN[shown]}\n")
    assert [x.id for x in found if x.severity.rank > Severity.INFO.rank] == []


@pytest.mark.parametrize(
    "answer",
    [
        *NO_GPU_ANSWERS.values(),
        *(CHOSEN_NONE[k] for k in CHOSEN_NONE if k != "placement"),
        NOT_BUILT_WITH_CUDA,
    ],
)
def test_the_answer_alone_stands_so_the_property_is_not_vacuous(answer: str) -> None:
    found = _explain_log(answer + "\n")
    assert log_violations(found, ["tf-lists-gpu"]) != []


def test_a_planted_contradiction_in_a_log_is_caught() -> None:
    planted = causes.finding(
        "explain.x", Severity.ERROR, causes.gpu.CUDA_LIBS_MISSING, "TensorFlow lists no GPU"
    )
    assert log_violations([planted], ["tf-lists-gpu"]) == [
        "explain.x error (cuda-libs-missing) vs ['tf-lists-gpu']"
    ]
