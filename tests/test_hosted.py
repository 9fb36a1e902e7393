"""Hosted notebook images and Cloud TPU VMs: the probe's markers, the data file, and each image's
facts file (tests/data/hosted, from what the image really ships) judged by the checks."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any, Optional

import pytest

from tests.commandline import tfdoctor
from tests.facts_cases import assert_verdict, read_case
from tfdoctor.checks import run_checks, select_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.facts import Facts, HostedFacts, facts_from_json
from tfdoctor.hosted import HostedDataError, hosted_data, parse_hosted_data
from tfdoctor.machine import Machine
from tfdoctor.matrix import load_matrix
from tfdoctor.probes.hosted import probe_hosted

DATA = Path(__file__).parent / "data" / "hosted"
CASES = sorted(DATA.glob("*.json"))


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_each_image_gets_its_verdict_and_fix(path: Path) -> None:
    assert_verdict(path)


#: A GitHub file cited at a commit: ``https://github.com/OWNER/REPO/blob/<40 hex>/PATH``.
_GITHUB_AT_COMMIT = re.compile(r"^https://github\.com/[^/]+/[^/]+/(blob|tree)/[0-9a-f]{40}(/|$)")


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_each_facts_file_says_where_each_value_comes_from(path: Path) -> None:
    """Each value is cited (a GitHub file at a commit, or a vendor's page) or marked
    illustrative with the reason no source gives it."""
    provenance = read_case(path).get("provenance")

    assert provenance, "a facts file names the sources of its values"
    for entry in provenance:
        assert set(entry) in (
            {"what", "source"},
            {"what", "source", "note"},
            {"what", "illustrative"},
        ), entry
        assert entry["what"]
        if "illustrative" in entry:
            assert entry["illustrative"], entry
            continue
        url = entry["source"]
        assert url.startswith("https://"), entry
        if url.startswith("https://github.com/"):
            assert _GITHUB_AT_COMMIT.match(url), f"cite a commit, not a branch: {url}"


def test_every_image_the_probe_names_has_a_facts_file() -> None:
    named = {read_case(p)["facts"]["hosted"]["name"] for p in CASES}
    assert {image.name for image in hosted_data().images} <= named


def test_check_facts_reports_a_replaced_tensorflow_end_to_end(tmp_path: Path) -> None:
    facts = tmp_path / "facts.json"
    facts.write_text(json.dumps(read_case(DATA / "colab-gpu-tf-upgraded.json")["facts"]), "utf-8")

    out = tfdoctor("check", "--facts", str(facts), "--json", "hosted.tensorflow")

    report = json.loads(out.stdout)
    assert [(f["id"], f["cause"]) for f in report["findings"]] == [
        ("hosted.tensorflow", "hosted-tf-replaced")
    ]


# --- the probe ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("env", "files", "expected"),
    [
        pytest.param({}, (), (None, None, None), id="nothing"),
        pytest.param(
            {"COLAB_RELEASE_TAG": "release-colab_20260818-060047_RC00"},
            (),
            ("colab", "release-colab_20260818-060047_RC00", None),
            id="colab",
        ),
        # Kaggle's images are built from Colab's and keep its variables: Kaggle wins.
        pytest.param(
            {"KAGGLE_KERNEL_RUN_TYPE": "Interactive", "COLAB_RELEASE_TAG": "x"},
            ("etc/build_date",),
            ("kaggle", "20260812", None),
            id="kaggle-over-colab",
        ),
        pytest.param(
            {"DATABRICKS_RUNTIME_VERSION": "16.4"},
            (),
            ("databricks", "16.4", None),
            id="databricks",
        ),
        pytest.param(
            {"SM_CURRENT_HOST": "algo-1"}, (), ("sagemaker", None, None), id="sagemaker-job"
        ),
        pytest.param(
            {},
            ("opt/ml/metadata/resource-metadata.json",),
            ("sagemaker", None, None),
            id="sagemaker-notebook",
        ),
        pytest.param(
            {},
            ("opt/deeplearning/metadata/images_version",),
            ("vertex", "20260812", None),
            id="vertex",
        ),
        pytest.param(
            {"TPU_ACCELERATOR_TYPE": "v6e-8"},
            ("dev/vfio/0",),
            ("tpu-vm", None, "v6e-8"),
            id="tpu-vm-vfio",
        ),
        pytest.param({}, ("dev/accel0",), ("tpu-vm", None, None), id="tpu-vm-accel"),
        # A VFIO group alone is any device passed through, not a TPU.
        pytest.param({}, ("dev/vfio/0",), (None, None, None), id="vfio-alone"),
    ],
)
def test_probe_names_the_image_from_its_markers(
    tmp_path: Path, env: dict[str, str], files: tuple[str, ...], expected: tuple[Any, ...]
) -> None:
    for rel in files:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("20260812\n", encoding="utf-8")

    hosted = probe_hosted(env, tmp_path)

    assert (hosted.name, hosted.image_version, hosted.tpu_type) == expected
    assert bool(hosted.markers) == (expected[0] is not None)


def test_kaggles_tpu_image_counts_its_vfio_chips(tmp_path: Path) -> None:
    """Kaggle's TPU image sets ISTPUVM (Kaggle/docker-python, tpu/Dockerfile) and no TPU type:
    its /dev/vfio/N nodes are its TPU's, as on a TPU VM."""
    for n in range(2):
        (tmp_path / "dev" / "vfio").mkdir(parents=True, exist_ok=True)
        (tmp_path / "dev" / "vfio" / str(n)).write_text("", encoding="utf-8")
    env = {"KAGGLE_KERNEL_RUN_TYPE": "Interactive", "ISTPUVM": "1"}

    hosted = probe_hosted(env, tmp_path)

    assert (hosted.name, hosted.tpu_type) == ("kaggle", None)
    assert hosted.tpu_devices == ("/dev/vfio/0", "/dev/vfio/1")
    assert "env:ISTPUVM" in hosted.markers


def _pci(root: Path, slot: str, device: str, subsystem: str = "0x0000") -> None:
    """A PCI device of Google's vendor id under ``root``'s /sys/bus/pci/devices."""
    folder = root / "sys" / "bus" / "pci" / "devices" / slot
    folder.mkdir(parents=True)
    for name, value in (("vendor", "0x1ae0"), ("device", device), ("subsystem_device", subsystem)):
        (folder / name).write_text(value + "\n", encoding="ascii")


@pytest.mark.parametrize(
    ("chips", "expected"),
    [
        # A TPU VM made with gcloud sets no TPU variable: its chips on the PCI bus say it.
        pytest.param(
            [("0x0063", "0x0000")], ("tpu-vm", "v5litepod", "pci:0x1ae0:0x0063"), id="v5e"
        ),
        pytest.param([("0x006f", "0x0000")], ("tpu-vm", "v6e", "pci:0x1ae0:0x006f"), id="v6e"),
        pytest.param([("0x0027", "0x004f")], ("tpu-vm", "v3", "pci:0x1ae0:0x0027"), id="v3"),
        # Google's gVNIC network card has Google's vendor id too, and is no TPU.
        pytest.param([("0x0042", "0x0058")], (None, None, None), id="gvnic"),
    ],
)
def test_the_probe_reads_the_tpu_chips_on_the_pci_bus(
    tmp_path: Path, chips: list[tuple[str, str]], expected: tuple[Any, ...]
) -> None:
    for n, (device, subsystem) in enumerate(chips):
        _pci(tmp_path, f"0000:00:{n + 4:02x}.0", device, subsystem)
    (tmp_path / "dev" / "vfio").mkdir(parents=True)
    (tmp_path / "dev" / "vfio" / "0").write_text("", encoding="utf-8")

    hosted = probe_hosted({}, tmp_path)

    name, tpu_type, marker = expected
    assert (hosted.name, hosted.tpu_type) == (name, tpu_type)
    assert hosted.tpu_devices == (("/dev/vfio/0",) if name else ())
    assert (marker in hosted.markers) if marker else not hosted.markers


@pytest.mark.parametrize(
    ("device", "expected"),
    [
        # Cloud TPU's software versions page: v6e, v5e and v5p run TensorFlow 2.15.0 and later.
        pytest.param("0x006f", ("ok", ""), id="v6e-runs-tensorflow"),
        pytest.param("0x0076", ("warning", "tpu-generation-unsupported"), id="tpu7x"),
    ],
)
def test_a_tpu_generation_read_from_pci_is_judged(
    tmp_path: Path, device: str, expected: tuple[str, str]
) -> None:
    """tensorflow-tpu on a VM made with gcloud: the generation from the PCI bus is enough."""
    facts = facts_from_json(read_case(DATA / "tpu-vm-v5e-tensorflow-tpu.json")["facts"])
    _pci(tmp_path, "0000:00:04.0", device)
    vm = dataclasses.replace(facts, hosted=probe_hosted({}, tmp_path))

    (found,) = run_checks(CheckContext(vm, load_matrix()), select_checks(["hosted.tpu"]))

    assert (found.severity.value, found.cause) == expected


def _tpu_vm(accelerator: str, name: str, version: str) -> Facts:
    """The v5e TPU VM's facts with ``accelerator`` as its type and TensorFlow as ``name``
    ``version`` (the TPU build's libtpu left beside it)."""
    facts = facts_from_json(read_case(DATA / "tpu-vm-v5e-tensorflow-tpu.json")["facts"])
    packages = tuple(
        dataclasses.replace(p, name=name, version=version) if p.name == "tensorflow-tpu" else p
        for p in facts.packages or ()
    )
    assert facts.hosted is not None
    hosted = dataclasses.replace(facts.hosted, tpu_type=accelerator)
    return dataclasses.replace(facts, packages=packages, hosted=hosted)


@pytest.mark.parametrize(
    ("accelerator", "name", "version", "expected"),
    [
        # Cloud TPU's software versions page: TPU v6e, v5e and v5p support TensorFlow 2.15.0
        # and later (tpu-vm-tf-X.Y.Z-pjrt); the TPU build of an older release does not run there.
        pytest.param(
            "v5litepod-8",
            "tensorflow-tpu",
            "2.14.1",
            ("warning", "tpu-generation-unsupported"),
            id="v5e-2.14",
        ),
        pytest.param(
            "v6e-8",
            "tensorflow-tpu",
            "2.13.0",
            ("warning", "tpu-generation-unsupported"),
            id="v6e-2.13",
        ),
        pytest.param("v5p-8", "tensorflow-tpu", "2.15.0", ("ok", ""), id="v5p-at-the-floor"),
        # A release written without its patch number is that release's X.Y.0: "2.15" is the
        # floor, not older than it.
        pytest.param("v5p-8", "tensorflow-tpu", "2.15", ("ok", ""), id="floor-without-patch"),
        pytest.param("v5litepod-8", "tensorflow-tpu", "2.17.0", ("ok", ""), id="v5e-2.17"),
        # The page states no floor for v4: an older TPU build runs there as it did.
        pytest.param("v4-8", "tensorflow-tpu", "2.12.0", ("ok", ""), id="v4-has-no-floor"),
        # Below the floor the CPU wheel's own advice (its release's tensorflow-tpu) would not
        # run either: the floor is told first.
        pytest.param(
            "v5litepod-8",
            "tensorflow",
            "2.14.0",
            ("warning", "tpu-generation-unsupported"),
            id="cpu-wheel-below-the-floor",
        ),
        pytest.param(
            "v5litepod-8",
            "tensorflow",
            "2.16.1",
            ("warning", "tpu-tf-without-libtpu"),
            id="cpu-wheel-above-the-floor",
        ),
    ],
)
def test_tensorflow_older_than_a_generations_floor_is_told_the_floor(
    accelerator: str, name: str, version: str, expected: tuple[str, str]
) -> None:
    vm = _tpu_vm(accelerator, name, version)

    (found,) = run_checks(CheckContext(vm, load_matrix()), select_checks(["hosted.tpu"]))

    assert (found.severity.value, found.cause) == expected
    if found.cause == "tpu-generation-unsupported":
        assert found.fix is not None
        assert "TensorFlow 2.15.0 on" in found.fix.text
        assert any('"tensorflow-tpu>=2.15.0"' in c for c in found.fix.commands)
        assert any(f"uninstall -y {name}" in c for c in found.fix.commands) == (
            name != "tensorflow-tpu"
        )


# --- the data file --------------------------------------------------------------------------


def test_every_shipped_release_is_pinned_and_sourced() -> None:
    data = hosted_data()
    for image in data.images:
        assert image.sources, image.name
        for release in image.releases:
            assert release.sources and all(s in data.sources for s in release.sources)
    assert data.tpu("v6e-8") is not None and data.tpu("v6e-8").tensorflow  # type: ignore[union-attr]
    assert data.tpu("tpu7x-8") is not None and not data.tpu("tpu7x-8").tensorflow  # type: ignore[union-attr]
    # Cloud TPU's software versions page: v6e, v5e and v5p from TensorFlow 2.15.0; no floor
    # stated for v2 to v4 (https://cloud.google.com/tpu/docs/runtimes).
    floors = {g.prefix: g.tensorflow_min for g in data.tpu_generations}
    assert floors == {
        "v2": None,
        "v3": None,
        "v4": None,
        "v5litepod": "2.15.0",
        "v5e": "2.15.0",
        "v5p": "2.15.0",
        "v6e": "2.15.0",
        "tpu7x": None,
    }


@pytest.mark.parametrize(
    ("instance", "gpu"),
    [
        ("ml.g4dn.xlarge", True),
        ("ml.p4d.24xlarge", True),
        ("ml.m5.xlarge", False),
        ("ml.inf2.xlarge", False),  # Inferentia's letters, not the i of another family
        ("ml.trn1.2xlarge", False),  # Trainium's, not the t of ml.t3
        # Not judged: a family the table does not list, a type without SageMaker's prefix.
        ("ml.zz9.large", None),
        ("m5.xlarge", None),
        ("ml.m5", None),
    ],
)
def test_an_instance_types_family_is_read_by_its_letters(
    instance: str, gpu: Optional[bool]
) -> None:
    family = hosted_data().instance_family(instance)
    assert (family.gpu if family is not None else None) is gpu


@pytest.mark.parametrize(
    ("change", "message"),
    [
        pytest.param(
            ('  - prefix: "ml.m"\n    gpu: false', '  - prefix: "ml.m"\n    gpu: no GPU'),
            "instance_families[ml.m].gpu: expected true or false",
            id="family-gpu-not-a-boolean",
        ),
        pytest.param(
            ('tensorflow: "tensorflow==2.20.0"', "tensorflow: 2.20"),
            "images[colab].releases[latest].tensorflow: expected a string",
            id="unquoted-version",
        ),
        pytest.param(
            ("source: tpu-v7", "source: nowhere"),
            "tpu_generations[tpu7x].source",
            id="unknown-source",
        ),
        pytest.param(
            ('tensorflow_min: "2.15.0"', 'tensorflow_min: "2.15"'),
            "tpu_generations[v5litepod].tensorflow_min: '2.15' is not a valid X.Y.Z release",
            id="floor-not-a-release",
        ),
    ],
)
def test_a_broken_data_file_is_named_by_file_line_and_field(
    change: tuple[str, str], message: str
) -> None:
    text = Path(hosted_data().path).read_text(encoding="utf-8").replace(*change, 1)

    with pytest.raises(HostedDataError, match=message.replace("[", r"\[").replace("]", r"\]")):
        parse_hosted_data(text, "hosted.yaml")


@pytest.mark.parametrize(
    ("hosted", "environment", "expected"),
    [
        pytest.param(HostedFacts(name="kaggle"), {}, "kaggle", id="probed"),
        pytest.param(HostedFacts(name="tpu-vm"), {}, None, id="tpu-vm-is-no-notebook"),
        pytest.param(HostedFacts(), {"COLAB_GPU": "1"}, None, id="probe-found-none"),
        pytest.param(None, {"COLAB_GPU": "1"}, "colab", id="older-facts"),
    ],
)
def test_the_machine_view_names_the_notebook_the_probe_found(
    hosted: HostedFacts | None, environment: dict[str, str], expected: str | None
) -> None:
    facts = Facts("0.1.0", "2026-01-01T00:00:00+00:00", environment=environment, hosted=hosted)

    assert Machine(facts, None).notebook == expected


def test_check_probes_the_hosted_image_from_the_environment() -> None:
    out = tfdoctor(
        "check",
        "--static",
        "--json",
        "hosted.tpu",
        env={"TPU_NAME": "local", "TPU_ACCELERATOR_TYPE": "tpu7x-8"},
    )

    report = json.loads(out.stdout)
    hosted = report["facts"]["hosted"]
    assert (hosted["name"], hosted["tpu_type"]) == ("tpu-vm", "tpu7x-8")
    assert "env:TPU_ACCELERATOR_TYPE" in hosted["markers"]
    # Whatever TensorFlow is installed here, TPU7x runs none (no TensorFlow: nothing to judge).
    has_tf = any(p["name"].startswith("tensorflow") for p in report["facts"]["packages"])
    expected = [("hosted.tpu", "tpu-generation-unsupported")] if has_tf else []
    assert [(f["id"], f["cause"]) for f in report["findings"]] == expected


def test_verbose_report_shows_the_hosted_image_only_where_there_is_one() -> None:
    from tfdoctor.render._common import facts_sections

    facts = facts_from_json(read_case(DATA / "tpu-vm-v5e-tensorflow-tpu.json")["facts"])
    titles = [s.title for s in facts_sections(facts, brief=False)]
    hosted = next(s for s in facts_sections(facts, brief=False) if s.title == "Hosted image")

    vfio = ", ".join(f"/dev/vfio/{i}" for i in range(8))
    assert f"  TPU: v5litepod-8; devices: {vfio}" in hosted.lines
    assert "Hosted image" not in [
        s.title for s in facts_sections(Facts("0.1.0", "x", hosted=HostedFacts()), brief=False)
    ]
    assert titles[-1] == "Probe errors"


def test_the_images_tensorflow_on_a_python_of_ones_own_is_the_images() -> None:
    case = read_case(DATA / "colab-gpu-as-shipped.json")
    facts = facts_from_json(case["facts"])
    assert facts.python is not None
    own = dataclasses.replace(facts, python=dataclasses.replace(facts.python, version="3.10.4"))

    (found,) = run_checks(CheckContext(own, load_matrix()), select_checks(["hosted.tensorflow"]))

    assert found.severity.value == "ok", found


def test_a_colab_vm_without_a_driver_is_told_the_runtime_setting() -> None:
    from tests import factories as f
    from tfdoctor.checks._context import CheckContext
    from tfdoctor.checks._shared import driver_cause
    from tfdoctor.facts import HostedFacts

    colab = HostedFacts(name="colab", markers=("env:COLAB_RELEASE_TAG",))
    for reason in ("driver-not-loaded", "library-not-found"):
        cause, remedy = driver_cause(CheckContext(f.facts(hosted=colab), f.FIXTURE_MATRIX), reason)
        assert cause == "hosted-runtime-without-gpu"
        assert "Hardware accelerator" in remedy.text
    # Elsewhere the driver's own cause, and a Deep Learning VM's driver is installable.
    vertex = HostedFacts(name="vertex", markers=("path:/opt/deeplearning/metadata",))
    for hosted in (None, vertex):
        ctx = CheckContext(f.facts(hosted=hosted), f.FIXTURE_MATRIX)
        assert driver_cause(ctx, "driver-not-loaded")[0] == "driver-not-loaded"


def _gpu_build_without_libcuda(hosted: Optional[HostedFacts]) -> Facts:
    """TensorFlow 1.15's GPU build failing to import for want of libcuda.so.1, in a container
    on a machine whose PCI bus holds no NVIDIA device and which loads no nvidia module."""
    from tests import factories as f
    from tfdoctor.facts import NvidiaKernelFacts

    said = (
        "libcuda.so.1: cannot open shared object file: No such file or directory\n\n\n"
        "Failed to load the native TensorFlow runtime."
    )
    return f.facts(
        platform=f.platform(container="docker", nvidia_device_nodes=()),
        packages=(
            f.pkg("tensorflow-gpu", "1.15.5", "numpy<1.19.0,>=1.16.0", top_level=("tensorflow",)),
            f.pkg("numpy", "1.18.5"),
        ),
        driver=f.NO_DRIVER,
        tensorflow=f.tensorflow(
            status="import-error",
            version=None,
            git_version=None,
            build_info={},
            build_info_source=None,
            is_cuda_build=None,
            is_rocm_build=None,
            cuda_version=None,
            cudnn_version=None,
            compute_capabilities=(),
            devices=(),
            error_type="ImportError",
            error_message=said,
            returncode=1,
            stderr_tail=f"Traceback (most recent call last):\nImportError: {said}\n",
        ),
        nvidia_kernel=NvidiaKernelFacts(pci_source="sysfs", modules=()),
        hosted=hosted,
    )


def _import_finding(facts: Facts) -> Any:
    found = run_checks(CheckContext(facts, load_matrix()), select_checks(["tensorflow.import"]))
    return next(x for x in found if x.cause)


def test_a_gpu_build_on_a_sagemaker_instance_without_a_gpu_is_told_the_instance_type() -> None:
    sagemaker = HostedFacts(name="sagemaker", markers=("env:SM_CURRENT_HOST",))

    found = _import_finding(_gpu_build_without_libcuda(sagemaker))

    assert found.cause == "hosted-runtime-without-gpu"
    assert found.fix is not None
    assert "an instance type with a GPU (ml.g* or ml.p*)" in found.fix.text
    assert "no NVIDIA device on its PCI bus" in found.fix.text
    assert "CPU build" in found.fix.text and "--gpus" not in found.fix.text


def test_a_colab_vm_in_its_container_without_libcuda_is_told_the_runtime_setting() -> None:
    colab = HostedFacts(name="colab", markers=("env:COLAB_RELEASE_TAG",))

    found = _import_finding(_gpu_build_without_libcuda(colab))

    assert found.cause == "hosted-runtime-without-gpu"
    assert found.fix is not None and "Hardware accelerator" in found.fix.text


def test_no_hosted_runtime_is_invented_where_no_marker_shows_one() -> None:
    # The same machine with no hosted marker: a GPU build where there is no GPU, whose fix is
    # the CPU build or a machine with a GPU, never a platform's setting.
    found = _import_finding(_gpu_build_without_libcuda(None))

    assert found.cause == "driver-libraries-missing"
    assert found.fix is not None
    assert "tensorflow==1.15.5" in found.fix.text and "SageMaker" not in found.fix.text


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("colab", "Hardware accelerator"),
        ("sagemaker", "an instance type with a GPU (ml.g* or ml.p*)"),
        (None, None),
    ],
    ids=["colab", "sagemaker", "no-marker"],
)
def test_a_required_gpu_on_a_cpu_runtime_is_told_the_runtime_setting(
    name: Optional[str], words: Optional[str]
) -> None:
    from tests import factories as f
    from tfdoctor.checks import implied_checks
    from tfdoctor.facts import DeviceFacts, NvidiaKernelFacts

    facts = f.cpu_only_machine(
        nvidia_kernel=NvidiaKernelFacts(pci_source="sysfs", modules=()),
        hosted=HostedFacts(name=name, markers=(f"env:{name}",)) if name else None,
        tensorflow=f.tensorflow(devices=(DeviceFacts("/physical_device:CPU:0", "CPU"),)),
    )
    checks = (*select_checks(["driver.nvidia"]), *implied_checks(require_gpu=True))

    for require in (False, True):
        found = run_checks(CheckContext(facts, load_matrix(), require_gpu=require), checks)
        by_id = {x.id: x for x in found}
        driver = by_id["driver.nvidia"]
        # A CPU runtime is no fault: a note, naming the runtime's setting where a marker shows
        # a hosted runtime; --require-gpu raises it with that fix.
        assert driver.severity.value == "info"
        assert driver.cause == ("hosted-runtime-without-gpu" if name else "")
        if require:
            gate = by_id["gpu.required"]
            assert gate.severity.value == "error" and gate.cause == driver.cause
            assert gate.fix is not None
            assert (words in gate.fix.text) if words else "Hardware" not in gate.fix.text
        else:
            assert "gpu.required" not in by_id


def test_the_generation_fix_names_the_generations_and_floor_from_the_data() -> None:
    from tfdoctor.causes.hosted import tpu_generation_fix

    text = tpu_generation_fix("v7 (Ironwood)").text

    assert "(v6e, v5p, v5e, v4)" in text
    assert "on v6e, v5p and v5e a -pjrt one, TensorFlow 2.15.0 or later" in text


def test_the_floor_fix_names_the_generations_without_a_floor_from_the_data(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The generations an older TensorFlow keeps running on are those hosted.yaml gives no
    floor: a floor given to v4 takes it out of the fix's list."""
    import tfdoctor.causes.hosted as hosted_causes

    m = Machine(facts_from_json(read_case(DATA / "tpu-vm-v5e-tensorflow-tpu.json")["facts"]), None)
    shipped = hosted_causes.tpu_tensorflow_floor_fix(m, "v5e", "2.15.0").text
    assert "TPU v2, v3 or v4," in shipped

    text = Path(hosted_data().path).read_text(encoding="utf-8")
    v4 = 'generation: "v4"\n    tensorflow: true\n'
    assert text.count(v4) == 1
    floored = parse_hosted_data(text.replace(v4, v4 + '    tensorflow_min: "2.9.1"\n'))
    monkeypatch.setattr(hosted_causes, "hosted_data", lambda: floored)

    moved = hosted_causes.tpu_tensorflow_floor_fix(m, "v5e", "2.15.0").text
    assert "TPU v2 or v3," in moved and "v4" not in moved


def _with_python(facts: Facts, version: str) -> Facts:
    """``facts`` with the examined interpreter's version set to ``version``."""
    assert facts.python is not None
    return dataclasses.replace(facts, python=dataclasses.replace(facts.python, version=version))


def test_the_floor_fix_installs_only_what_the_python_has_wheels_for() -> None:
    """``tensorflow-tpu>=FLOOR`` on a Python no release from the floor on serves fails in pip's
    resolver: the fix says the Python must change and names the Pythons the floor's line
    serves, and installs nothing there; on a served Python it installs from the floor on."""
    import tfdoctor.causes.hosted as hosted_causes

    matrix = load_matrix()
    facts = facts_from_json(read_case(DATA / "tpu-vm-v5e-tensorflow-tpu.json")["facts"])
    floor_line = matrix.line_for("2.15.0")
    assert floor_line is not None and "3.8" not in floor_line.pythons_on("linux-")

    old = hosted_causes.tpu_tensorflow_floor_fix(
        Machine(_with_python(facts, "3.8.10"), matrix), "v5e", "2.15.0"
    )
    assert not any("install" in c and "tensorflow-tpu" in c for c in old.commands)
    newest = matrix.newest_release
    assert newest is not None and newest.pythons_on("linux-")
    assert "Python 3.8" in old.text
    assert f"{floor_line.pythons_on('linux-')[0]} to " in old.text

    served = hosted_causes.tpu_tensorflow_floor_fix(
        Machine(_with_python(facts, "3.9.18"), matrix), "v5e", "2.15.0"
    )
    assert any('"tensorflow-tpu>=2.15.0"' in c for c in served.commands)


def test_the_generation_cause_leaves_the_floor_to_the_data() -> None:
    """The floor release is hosted.yaml's: the static explanation does not restate it."""
    from tfdoctor.causes import CAUSES

    cause = CAUSES["tpu-generation-unsupported"]
    assert not re.search(r"\d+\.\d+\.\d+", cause.explanation)


@pytest.mark.parametrize("python", ["3.9.18", "3.12.3", "3.13.1"])
def test_the_floor_fix_names_no_tpu_release_the_data_does_not_hold(python: str) -> None:
    """The matrix lists tensorflow's releases, not tensorflow-tpu's: tensorflow-tpu has no
    build of every tensorflow release (PyPI's tensorflow-tpu has no 2.21.0, tensorflow has), so
    the fix names no release beside the floor as one the TPU build has."""
    import tfdoctor.causes.hosted as hosted_causes

    facts = facts_from_json(read_case(DATA / "tpu-vm-v5e-tensorflow-tpu.json")["facts"])
    fix = hosted_causes.tpu_tensorflow_floor_fix(
        Machine(_with_python(facts, python), load_matrix()), "v5e", "2.15.0"
    )
    assert set(re.findall(r"TensorFlow (\d+\.\d+(?:\.\d+)?)", fix.text)) <= {"2.15.0"}


@pytest.mark.parametrize(
    "hosted",
    [
        # Colab's runtime of TPU nodes: the TPU's address, no device on the VM.
        HostedFacts(name="colab", markers=("env:COLAB_RELEASE_TAG", "env:COLAB_TPU_ADDR")),
        # A runtime whose TPU chips are on the VM's own bus.
        HostedFacts(name="colab", markers=("env:COLAB_RELEASE_TAG",), tpu_devices=("/dev/accel0",)),
    ],
    ids=["tpu-node", "tpu-devices"],
)
def test_no_gpu_on_a_tpu_runtime_is_not_told_to_switch_to_a_gpu(hosted: HostedFacts) -> None:
    from tests import factories as f
    from tfdoctor.facts import DeviceFacts, NvidiaKernelFacts

    facts = f.cpu_only_machine(
        nvidia_kernel=NvidiaKernelFacts(pci_source="sysfs", modules=()),
        hosted=hosted,
        tensorflow=f.tensorflow(devices=(DeviceFacts("/physical_device:CPU:0", "CPU"),)),
    )
    found = run_checks(CheckContext(facts, load_matrix()), select_checks(["driver.nvidia"]))
    (driver,) = [x for x in found if x.id == "driver.nvidia"]
    assert driver.severity.value == "info" and driver.cause == ""


def test_a_tpu_node_runtime_is_not_told_to_install_the_tpu_build() -> None:
    """Colab's TPU-node runtime reaches its TPU over gRPC with the ordinary wheel: neither the
    TPU build with libtpu nor a missing TPU is its finding, and the image's TensorFlow is
    judged as on any Colab runtime."""
    from tests import factories as f

    hosted = HostedFacts(name="colab", markers=("env:COLAB_RELEASE_TAG", "env:COLAB_TPU_ADDR"))
    facts = f.cpu_only_machine(hosted=hosted)
    found = run_checks(
        CheckContext(facts, load_matrix()), select_checks(["hosted.tpu", "hosted.tensorflow"])
    )
    assert not [x for x in found if x.id == "hosted.tpu" and x.cause]
    assert [x for x in found if x.id == "hosted.tensorflow"]
