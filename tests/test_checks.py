"""Each check on small facts fixtures: passing, failing and unknown."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import pytest

from tests import factories as f
from tfdoctor.causes import CAUSES
from tfdoctor.checks import (
    CHECKS,
    FINDING_IDS,
    GPU_GATE,
    SMOKE,
    SMOKE_COMMAND,
    Check,
    UnknownCheckError,
    implied_checks,
    run_checks,
    select_checks,
)
from tfdoctor.checks._context import CheckContext
from tfdoctor.facts import (
    CuInitFacts,
    DeviceFacts,
    DriverFacts,
    Facts,
    GpuFacts,
    LibraryCandidate,
    ProbeError,
)
from tfdoctor.findings import Finding, Severity
from tfdoctor.machine import Machine

ROOT = Path(__file__).resolve().parent.parent


def run_one(check_id: str, facts: Facts) -> list[Finding]:
    return list(run_checks(CheckContext(facts, f.FIXTURE_MATRIX), select_checks([check_id])))


def only(check_id: str, facts: Facts) -> Finding:
    found = run_one(check_id, facts)
    assert len(found) == 1, found
    return found[0]


NUMPY_ABI = (
    "A module that was compiled using NumPy 1.x cannot be run in\nNumPy 2.0.0 as it may crash. "
    "To support both 1.x and 2.x\nversions of NumPy, modules must be compiled with NumPy 2.0."
)
DLOPEN = "libcudart.so.12: cannot open shared object file: No such file or directory"
SECOND_GPU = GpuFacts(1, "Tesla T4", "GPU-aa", None, "7.5", 16 * 2**30, 0, None, 0, 3)

#: cuDNN missing, and TensorFlow listing no GPU and saying why.
# Machines whose TensorFlow shows what the finding claims: a rule contradicted by what
# TensorFlow showed (it imports, it lists the GPU) is only a note (tests/test_observed.py).
NO_GPU_TF = f.tensorflow(devices=(DeviceFacts("/physical_device:CPU:0", "CPU"),))
NOT_INSTALLED = f.tensorflow(status="not-installed", version=None, devices=())
SIGILL = f.tensorflow(status="signal", signal="SIGILL", devices=())

LIBS_MISSING = f.facts(
    cuda_libs=f.cuda_libs(f.lib("cudnn", "libcudnn.so.8")),
    tensorflow=f.tensorflow(devices=(), log_errors=("Cannot dlopen some GPU libraries.",)),
)

CASES = [
    # (id, check, facts, severity, text that must appear in summary+fix)
    ("healthy-bits", "python.bits", f.facts(), Severity.OK, "64-bit"),
    (
        "32-bit",
        "python.bits",
        f.python32_machine(),
        Severity.ERROR,
        "64-bit wheels",
    ),
    ("venv", "python.environment", f.facts(), Severity.OK, "venv"),
    (
        "system-python",
        "python.environment",
        f.facts(python=f.python(env_kind="system", prefix="/usr", executable="/usr/bin/python3")),
        Severity.INFO,
        "/usr/bin/python3 -m venv .venv",
    ),
    (
        "pyenv-global",
        "python.environment",
        f.facts(python=f.python(env_kind="user")),
        Severity.INFO,
        "virtual environment",
    ),
    ("native", "platform.rosetta", f.facts(), Severity.OK, "native"),
    (
        "rosetta",
        "platform.rosetta",
        f.facts(
            platform=f.platform(system="Darwin", machine="x86_64", rosetta=True),
            tensorflow=SIGILL,
        ),
        Severity.ERROR,
        "arch -arm64",
    ),
    (
        "wsl1",
        "platform.wsl",
        f.facts(platform=f.platform(wsl="WSL1"), tensorflow=NO_GPU_TF),
        Severity.WARNING,
        "wsl --set-version",
    ),
    ("wsl2", "platform.wsl", f.facts(platform=f.platform(wsl="WSL2")), Severity.OK, "WSL 2"),
    ("avx", "cpu.avx", f.facts(), Severity.OK, "AVX2"),
    (
        "no-avx",
        "cpu.avx",
        f.facts(cpu=f.cpu(flags=("sse4_1", "sse4_2")), tensorflow=SIGILL),
        Severity.ERROR,
        "lacks AVX",
    ),
    (
        "flags-unknown",
        "cpu.avx",
        f.facts(cpu=f.cpu(flags=(), flags_known=False)),
        Severity.UNKNOWN,
        "Could not determine",
    ),
    (
        "arm-no-avx-needed",
        "cpu.avx",
        f.facts(platform=f.platform(machine="aarch64"), cpu=f.cpu(flags=("asimd",))),
        Severity.OK,
        "not x86",
    ),
    ("one-tf", "packages.tensorflow", f.facts(), Severity.OK, "tensorflow 2.15.1"),
    (
        "tf-and-tf-cpu",
        "packages.tensorflow",
        f.facts(packages=f.packages(f.pkg("tensorflow-cpu", "2.14.0", top_level=("tensorflow",)))),
        Severity.ERROR,
        "uninstall -y tensorflow tensorflow-cpu",
    ),
    (
        "windows-wrapper-pair",
        "packages.tensorflow",
        f.facts(
            packages=(
                f.pkg(
                    "tensorflow",
                    "2.15.1",
                    "tensorflow-intel==2.15.1; platform_system == 'Windows'",
                    top_level=("tensorflow",),
                ),
                f.pkg("tensorflow-intel", "2.15.1", top_level=("tensorflow",)),
            )
        ),
        Severity.OK,
        "One TensorFlow",
    ),
    (
        "no-tf",
        "packages.tensorflow",
        f.facts(packages=(f.pkg("numpy", "2.0.0"),), tensorflow=NOT_INSTALLED),
        Severity.ERROR,  # the interpreter was asked: no `tensorflow` module
        '-m pip install "tensorflow[and-cuda]==',
    ),
    (
        "tensorflow-gpu",
        "packages.tensorflow-gpu",
        f.facts(packages=f.packages(f.pkg("tensorflow-gpu", "2.12.0"))),
        Severity.WARNING,
        "uninstall -y tensorflow-gpu",
    ),
    (
        "tensorflow-gpu-is-the-gpu-build-to-2.11",
        "packages.tensorflow-gpu",
        f.facts(packages=f.packages(f.pkg("tensorflow-gpu", "2.10.1"))),
        Severity.OK,
        "the GPU build of TensorFlow 2.10",
    ),
    ("imports", "tensorflow.import", f.facts(), Severity.OK, "CUDA 12.2 build with code for sm_50"),
    (
        # Another project's build on a CPU with AVX alone: that build needs more than AVX.
        "sigill-build-beyond-avx",
        "tensorflow.import",
        f.facts(
            cpu=f.cpu(flags=("sse4_1", "sse4_2", "avx")),
            packages=(
                f.pkg("tensorflow-directml", "1.15.3.dev200626", top_level=("tensorflow",)),
                f.pkg("numpy", "1.18.5"),
            ),
            tensorflow=SIGILL,
        ),
        Severity.ERROR,
        "install --upgrade tensorflow-directml",
    ),
    (
        # The TensorFlow project's own wheel on a CPU with AVX: no other build to blame, the
        # general reading (what else the process ran is not in the facts).
        "sigill-pypi-build-with-avx",
        "tensorflow.import",
        f.facts(cpu=f.cpu(flags=("sse4_1", "sse4_2", "avx")), tensorflow=SIGILL),
        Severity.ERROR,
        "build TensorFlow from source for this CPU",
    ),
    (
        "static",
        "tensorflow.import",
        f.facts(tensorflow=f.tensorflow(status="skipped")),
        Severity.INFO,
        "--static",
    ),
    (
        "numpy2",
        "tensorflow.import",
        f.facts(
            packages=(*f.packages(f.pkg("numpy", "2.1.0"))[:1], f.pkg("numpy", "2.1.0")),
            tensorflow=f.tensorflow(
                status="import-error", error_type="ImportError", error_message=NUMPY_ABI
            ),
        ),
        Severity.ERROR,
        'install "numpy<2.0.0,>=1.23.5"',
    ),
    (
        "dlopen",
        "tensorflow.import",
        f.facts(
            tensorflow=f.tensorflow(
                status="import-error", error_type="ImportError", error_message=DLOPEN
            )
        ),
        Severity.ERROR,
        'install "tensorflow[and-cuda]==2.15.1"',
    ),
    (
        "incomplete",
        "tensorflow.import",
        f.facts(
            tensorflow=f.tensorflow(
                status="import-error",
                error_type="ModuleNotFoundError",
                error_message="No module named 'tensorflow.python'",
                stderr_tail=(
                    "Traceback (most recent call last):\n"
                    '  File "/opt/venv/lib/python3.11/site-packages/tensorflow/__init__.py", '
                    "line 40, in <module>\n"
                    "    from tensorflow.python import pywrap_tensorflow\n"
                    "ModuleNotFoundError: No module named 'tensorflow.python'"
                ),
            )
        ),
        Severity.ERROR,
        "uninstall -y tensorflow",
    ),
    (
        "glibc",
        "tensorflow.import",
        f.facts(
            tensorflow=f.tensorflow(
                status="import-error",
                error_type="ImportError",
                error_message="/lib64/libc.so.6: version `GLIBC_2.28' not found",
            )
        ),
        Severity.ERROR,
        "GLIBC_2.28",
    ),
    (
        "protobuf",
        "tensorflow.import",
        f.facts(
            tensorflow=f.tensorflow(
                status="import-error",
                error_type="TypeError",
                error_message="Descriptors cannot be created directly.",
            )
        ),
        Severity.ERROR,
        '"protobuf!=4.21.0',
    ),
    (
        "sigill",
        "tensorflow.import",
        f.facts(cpu=f.cpu(flags=()), tensorflow=f.tensorflow(status="signal", signal="SIGILL")),
        Severity.ERROR,
        "SIGILL",
    ),
    (
        "sigsegv",
        "tensorflow.import",
        f.facts(tensorflow=f.tensorflow(status="signal", signal="SIGSEGV")),
        Severity.ERROR,
        "faulthandler",
    ),
    (
        "hang",
        "tensorflow.import",
        f.facts(tensorflow=f.tensorflow(status="timeout", timeout=5.0)),
        Severity.ERROR,
        "within 5 s",
    ),
    (
        "child-error",
        "tensorflow.import",
        f.facts(tensorflow=f.tensorflow(status="child-error")),
        Severity.UNKNOWN,
        "child-error",
    ),
    ("driver-ok", "driver.nvidia", f.facts(), Severity.OK, "550.54.15"),
    ("no-gpu-machine", "driver.nvidia", f.cpu_only_machine(), Severity.INFO, "No NVIDIA GPU"),
    (
        "mismatch",
        "driver.nvidia",
        f.facts(
            driver=DriverFacts(
                "none",
                error=ProbeError(
                    "driver",
                    "version-mismatch",
                    "Failed to initialize NVML: Driver/library version mismatch",
                ),
            ),
            tensorflow=NO_GPU_TF,
        ),
        Severity.ERROR,
        "sudo reboot",
    ),
    (
        "no-permission",
        "driver.nvidia",
        f.facts(
            driver=DriverFacts("none", error=ProbeError("driver", "no-permission", "denied")),
            tensorflow=NO_GPU_TF,
        ),
        Severity.ERROR,
        "usermod -aG video",
    ),
    (
        # In a container the runtime sets the groups: how it is started, not usermod there.
        "no-permission-in-a-container",
        "driver.nvidia",
        f.facts(
            driver=DriverFacts("none", error=ProbeError("driver", "no-permission", "denied")),
            platform=f.platform(container="docker"),
            tensorflow=NO_GPU_TF,
        ),
        Severity.ERROR,
        "--gpus all",
    ),
    (
        "container-without-toolkit",
        "driver.nvidia",
        f.facts(driver=f.NO_DRIVER, platform=f.platform(container="docker"), tensorflow=NO_GPU_TF),
        Severity.ERROR,
        "--gpus all",
    ),
    (
        "host-nodes-without-driver-library",
        "driver.nvidia",
        f.facts(driver=f.NO_DRIVER, tensorflow=NO_GPU_TF),
        Severity.ERROR,
        "Reinstall the user-space libraries of the driver",
    ),
    (
        "ecc",
        "gpu.ecc",
        f.facts(driver=f.driver(gpus=(*f.driver().gpus, SECOND_GPU))),
        Severity.WARNING,
        "3 uncorrected",
    ),
    ("sees-gpu", "gpu.visible", f.facts(), Severity.OK, "1 GPU"),
    ("cuda-build-no-gpu", "gpu.visible", f.cpu_only_machine(), Severity.INFO, "no NVIDIA GPU here"),
    (
        "hidden-by-cvd",
        "gpu.visible",
        f.facts(environment={"CUDA_VISIBLE_DEVICES": "-1"}, tensorflow=f.tensorflow(devices=())),
        Severity.WARNING,
        "unset CUDA_VISIBLE_DEVICES",
    ),
    # A GPU UUID (or its first digits) that no GPU here has: CUDA takes none from there on.
    (
        "hidden-by-cvd-uuid",
        "gpu.visible",
        f.facts(
            environment={"CUDA_VISIBLE_DEVICES": "GPU-9a8b7c6d"},
            tensorflow=f.tensorflow(devices=()),
        ),
        Severity.WARNING,
        "unset CUDA_VISIBLE_DEVICES",
    ),
    # cuInit's CUDA_ERROR_INVALID_DEVICE: the device the user named is CUDA_VISIBLE_DEVICES's.
    (
        "cuinit-invalid-device",
        "gpu.visible",
        f.facts(
            environment={"CUDA_VISIBLE_DEVICES": "MIG-5c3d1e2f"},
            cuinit=CuInitFacts("error", 101, "CUDA_ERROR_INVALID_DEVICE", "libcuda.so.1"),
            tensorflow=f.tensorflow(devices=()),
        ),
        Severity.ERROR,
        "unset CUDA_VISIBLE_DEVICES",
    ),
    # A cuInit result with no reading of its own is named, not left unsaid.
    (
        "cuinit-not-initialized-named",
        "gpu.visible",
        f.facts(
            cuinit=CuInitFacts("error", 3, "CUDA_ERROR_NOT_INITIALIZED", "libcuda.so.1"),
            tensorflow=f.tensorflow(devices=()),
        ),
        Severity.ERROR,
        "cuInit fails with CUDA_ERROR_NOT_INITIALIZED (3)",
    ),
    (
        "cpu-build-with-gpu",
        "gpu.visible",
        f.facts(tensorflow=f.tensorflow(is_cuda_build=False, devices=())),
        Severity.WARNING,
        "CPU-only build",
    ),
    (
        "libs-missing",
        "gpu.visible",
        LIBS_MISSING,
        Severity.ERROR,
        "cannot load cudnn",
    ),
    (
        "broken-driver",
        "gpu.visible",
        f.facts(
            driver=DriverFacts("none", error=ProbeError("driver", "driver-not-loaded", "x")),
            tensorflow=f.tensorflow(devices=()),
        ),
        Severity.ERROR,
        "driver.nvidia",
    ),
    ("libs-found", "cuda.libraries", f.facts(), Severity.OK, "All 3"),
    (
        "libs-missing-gpu",
        "cuda.libraries",
        LIBS_MISSING,
        Severity.ERROR,
        "tensorflow[and-cuda]==2.15.1",
    ),
    (
        "libs-missing-static",
        "cuda.libraries",
        f.facts(
            cuda_libs=f.cuda_libs(f.lib("cudnn", "libcudnn.so.8")),
            tensorflow=f.tensorflow(status="skipped", devices=()),
        ),
        Severity.ERROR,
        "tensorflow[and-cuda]==2.15.1",
    ),
    (
        "libs-missing-yet-tf-lists-the-gpu",
        "cuda.libraries",
        f.facts(cuda_libs=f.cuda_libs(f.lib("cudnn", "libcudnn.so.8"))),
        Severity.INFO,
        "yet TensorFlow lists 1 GPU(s)",
    ),
    (
        "libs-missing-no-gpu",
        "cuda.libraries",
        f.cpu_only_machine(),
        Severity.INFO,
        "not needed without a GPU",
    ),
    (
        "shadowed",
        "cuda.shadowed",
        f.facts(
            environment={"LD_LIBRARY_PATH": "/usr/local/cuda/lib64:/opt/other"},
            cuda_libs=f.cuda_libs(
                f.lib(
                    "cudnn",
                    "libcudnn.so.8",
                    LibraryCandidate(
                        "/usr/local/cuda/lib64/libcudnn.so.8",
                        "LD_LIBRARY_PATH",
                        "8.6.0",
                        "call",
                        True,
                    ),
                    f.pip_cand("cudnn/lib/libcudnn.so.8", "8.9.4"),
                )
            ),
        ),
        Severity.WARNING,
        "export LD_LIBRARY_PATH=/opt/other",
    ),
]


def _text(finding: Finding) -> str:
    parts = [finding.summary, finding.detail]
    if finding.fix:
        parts += [finding.fix.text, *finding.fix.commands]
    return "\n".join(parts)


@pytest.mark.parametrize(
    ("check_id", "facts", "severity", "needle"),
    [pytest.param(c, fa, s, n, id=i) for i, c, fa, s, n in CASES],
)
def test_check_verdicts(check_id: str, facts: Facts, severity: Severity, needle: str) -> None:
    finding = only(check_id, facts)
    assert finding.severity is severity, finding
    assert needle in _text(finding)
    assert finding.check == check_id
    if severity in (Severity.ERROR, Severity.WARNING):
        assert finding.fix is not None and finding.fix.text


NONE_FACTS = f.facts(
    python=None,
    platform=None,
    cpu=None,
    packages=None,
    driver=None,
    cuda_libs=None,
    tensorflow=None,
    environment=None,
    errors=(ProbeError("python", "timeout", "no answer"),),
)


@pytest.mark.parametrize(
    "check_id",
    [
        "python.bits",
        "python.environment",
        "platform.rosetta",
        "cpu.avx",
        "packages.tensorflow",
        "tensorflow.import",
        "driver.nvidia",
        "cuda.libraries",
    ],
)
def test_missing_facts_are_unknown_never_ok(check_id: str) -> None:
    finding = only(check_id, NONE_FACTS)
    assert finding.severity is Severity.UNKNOWN
    assert finding.summary.startswith("Could not determine")


def test_failed_probe_is_reported() -> None:
    finding = only("doctor.probes", NONE_FACTS)
    assert finding.id == "doctor.probe-failed"
    assert "python" in finding.summary and "no answer" in finding.summary


def test_crashing_check_becomes_a_finding_and_others_run() -> None:
    def boom(_ctx: CheckContext) -> list[Finding]:
        raise KeyError("gpus")

    checks = (Check("test.boom", "Boom", boom), *select_checks(["python.bits"]))
    findings = run_checks(CheckContext(f.facts()), checks)
    assert [x.id for x in findings] == ["doctor.crashed", "python.bits"]
    assert findings[0].check == "test.boom" and "KeyError" in findings[0].summary


def test_unknown_check_id_is_rejected() -> None:
    with pytest.raises(UnknownCheckError, match="--list"):
        select_checks(["python.bitz"])


ALL_FACTS = [c[2] for c in CASES] + [NONE_FACTS]


def misfiled(checks: Sequence[Check], facts_list: Sequence[Facts]) -> set[tuple[str, str]]:
    """(check, finding id) where a check reports under an id other than its finding id."""
    return {
        (check.id, finding.id)
        for facts in facts_list
        for check in checks
        for finding in run_checks(CheckContext(facts), [check])
        if finding.id != check.finding_id
    }


def test_findings_carry_their_checks_id() -> None:
    assert misfiled(CHECKS, ALL_FACTS) == set()
    # Planted: a check that reports under another check's id.
    stray = Check("python.bits", "Bits", lambda _ctx: [Finding("gpu.visible", Severity.OK, "")])
    assert misfiled([stray], ALL_FACTS[:1]) == {("python.bits", "gpu.visible")}


FINDINGS_DOC = (ROOT / "docs" / "findings.md").read_text(encoding="utf-8")


def documented_finding_ids(doc: str) -> set[str]:
    """The finding ids docs/findings.md gives a section (``### `gpu.visible```)."""
    return set(re.findall(r"^### `([a-z0-9.-]+)`", doc, re.MULTILINE))


def documented_causes(doc: str) -> set[str]:
    """The cause ids docs/findings.md lists in its table of causes."""
    return set(re.findall(r"^\| `([a-z0-9-]+)` \|", doc, re.MULTILINE))


def doc_gaps(declared: Iterable[str], documented: Iterable[str]) -> tuple[list[str], list[str]]:
    """(declared but undocumented, documented but declared nowhere)."""
    return sorted(set(declared) - set(documented)), sorted(set(documented) - set(declared))


DECLARED_IDS = {c.finding_id for c in CHECKS} | {"doctor.crashed"}


def test_every_id_is_documented() -> None:
    assert doc_gaps(DECLARED_IDS, documented_finding_ids(FINDINGS_DOC)) == ([], [])
    # Planted: a section dropped, and one for an id no check reports.
    dropped = FINDINGS_DOC.replace("### `python.bits`", "### Python bits")
    assert doc_gaps(DECLARED_IDS, documented_finding_ids(dropped)) == (["python.bits"], [])
    extra = FINDINGS_DOC + "\n### `gpu.ghost`\n"
    assert doc_gaps(DECLARED_IDS, documented_finding_ids(extra)) == ([], ["gpu.ghost"])


def test_every_cause_is_documented() -> None:
    assert doc_gaps(CAUSES, documented_causes(FINDINGS_DOC)) == ([], [])
    # Planted: a cause's row dropped from the table.
    cause = sorted(CAUSES)[0]
    dropped = FINDINGS_DOC.replace(f"| `{cause}` |", f"| {cause} |")
    assert doc_gaps(CAUSES, documented_causes(dropped)) == ([cause], [])


def registry_faults(checks: Sequence[Check], finding_ids: Mapping[str, str]) -> list[str]:
    """Check ids registered twice, functions registered twice, and checks whose findings'
    id (``finding_ids``, else the check's own) is of another area than the check's id."""
    ids = Counter(c.id for c in checks)
    funcs = Counter(c.func for c in checks)
    faults = [f"{cid} registered twice" for cid, n in ids.items() if n > 1]
    faults += [f"{c.id} shares its function" for c in checks if funcs[c.func] > 1]
    return faults + [
        f"{c.id} reports as {finding_ids[c.id]}"
        for c in checks
        if c.id in finding_ids and finding_ids[c.id].split(".")[0] != c.id.split(".")[0]
    ]


def test_check_ids_are_unique_and_prefixes_of_their_findings() -> None:
    assert registry_faults(CHECKS, FINDING_IDS) == []
    assert all(c.finding_id == FINDING_IDS.get(c.id, c.id) for c in CHECKS)
    # Planted: a check registered twice; a check reporting under another area's id.
    (bits,) = select_checks(["python.bits"])
    assert registry_faults((*CHECKS, bits), FINDING_IDS) == [
        "python.bits registered twice",
        "python.bits shares its function",
        "python.bits shares its function",
    ]
    assert registry_faults(CHECKS, {**FINDING_IDS, "python.bits": "gpu.bits"}) == [
        "python.bits reports as gpu.bits"
    ]


def test_finding_ids_that_differ_name_registered_checks() -> None:
    assert set(FINDING_IDS) <= {c.id for c in CHECKS}
    (probes,) = select_checks(["doctor.probes"])
    assert probes.finding_id == "doctor.probe-failed"


def subset_faults(subset: Sequence[Check], registry: Sequence[Check]) -> list[str]:
    """Members of a named subset that are not registered, or are listed twice."""
    faults = [f"{c.id} is not registered" for c in subset if c not in registry]
    return faults + [f"{c.id} listed twice" for c, n in Counter(subset).items() if n > 1]


def test_named_subsets_are_registered_checks() -> None:
    for subset in (SMOKE, SMOKE_COMMAND, GPU_GATE):
        assert subset_faults(subset, CHECKS) == []
    # Planted: an unregistered check and a check listed twice.
    stray = Check("smoke.stray", "Stray", SMOKE[0].func)
    assert subset_faults((*SMOKE, stray, SMOKE[0]), CHECKS) == [
        "smoke.stray is not registered",
        f"{SMOKE[0].id} listed twice",
    ]
    assert {c.id.split(".")[0] for c in SMOKE} == {"smoke"}
    assert [c.id for c in SMOKE_COMMAND] == ["runtime.memory-held", *(c.id for c in SMOKE)]
    # The smoke checks report in registry order, last.
    assert CHECKS[-len(SMOKE_COMMAND) :] == SMOKE_COMMAND


def test_the_gpu_gate_holds_the_checks_that_decide_gpu_use() -> None:
    ids = [c.id for c in GPU_GATE]
    for wanted in (
        "packages.tensorflow",
        "tensorflow.import",
        "driver.nvidia",
        "driver.cuda",
        "gpu.visible",
        "gpu.compute-capability",
        "gpu.absent",
        "cuda.libraries",
        "cuda.versions",
    ):
        assert wanted in ids
    assert "gpu.required" not in ids  # it judges them
    # Causes before symptoms: gpu.visible restates what the others find.
    assert ids[-1] == "gpu.visible"


@pytest.mark.parametrize(
    ("require_gpu", "against", "expected"),
    [
        pytest.param(False, False, [], id="none"),
        pytest.param(True, False, ["gpu.required"], id="require-gpu"),
        pytest.param(False, True, ["packages.drift"], id="against"),
        pytest.param(True, True, ["gpu.required", "packages.drift"], id="both"),
    ],
)
def test_options_imply_their_checks(require_gpu: bool, against: bool, expected: list[str]) -> None:
    implied = implied_checks(require_gpu=require_gpu, against=against)
    assert [c.id for c in implied] == expected
    selected = select_checks(["python.bits"], implied)
    # Registry order, whatever the order asked in.
    assert [c.id for c in selected] == [c.id for c in CHECKS if c.id in ("python.bits", *expected)]
    assert select_checks([], implied) == CHECKS


def test_checks_are_pure() -> None:
    facts = f.facts()
    before = dataclasses.asdict(facts)
    first = run_checks(CheckContext(facts))
    assert run_checks(CheckContext(facts)) == first
    assert dataclasses.asdict(facts) == before


def test_two_distributions_installing_the_keras_package_are_a_mixed_keras() -> None:
    # TensorFlow 2.5 required keras-nightly, which installs the same keras/ folder as the
    # standalone keras a user had: each wrote over the other's files.
    tf = f.pkg("tensorflow", "2.5.0", "keras-nightly~=2.5.0.dev", top_level=("tensorflow",))
    nightly = f.pkg("keras-nightly", "2.5.0.dev2021032900", top_level=("keras",))
    keras = f.pkg("keras", "2.4.3", top_level=("keras",))
    mixed = [
        x
        for x in run_one("packages.pins", f.facts(packages=(tf, nightly, keras)))
        if "Two distributions" in x.summary
    ]
    assert len(mixed) == 1 and mixed[0].cause == "keras-version"
    assert mixed[0].severity is Severity.ERROR
    text = _text(mixed[0])
    assert "uninstall -y keras-nightly keras" in text and "keras-nightly~=2.5.0.dev" in text
    alone = run_one("packages.pins", f.facts(packages=(tf, nightly)))
    assert not [x for x in alone if "Two distributions" in x.summary]


def test_a_library_written_for_an_older_standalone_keras_gets_that_keras() -> None:
    # StellarGraph 0.7.1 declares keras>=2.2.4 with no bound; its code works with keras<2.2.5
    # (the companion table's built_on row, from 0.7.2's setup.py): Keras 2.3.0 admitted by
    # its metadata, not by its code. The same fix builder serves explain.
    tf = f.pkg("tensorflow", "1.14.0", top_level=("tensorflow",))
    graph = f.pkg("stellargraph", "0.7.1", "keras>=2.2.4", "tensorflow>=1.12")
    found = [
        x
        for x in run_one("packages.pins", f.facts(packages=(tf, graph, f.pkg("keras", "2.3.0"))))
        if x.cause == "companion-mismatch"
    ]
    assert len(found) == 1 and found[0].severity is Severity.WARNING
    assert 'install "keras<2.2.5,>=2.2.3"' in _text(found[0])
    fits = f.facts(packages=(tf, graph, f.pkg("keras", "2.2.4")))
    assert not [x for x in run_one("packages.pins", fits) if x.cause == "companion-mismatch"]
    # Its own metadata excluding the keras is a requirement pip reports, read as one: the
    # Machine's pairing leaves it out, for check and explain alike.
    narrowed = f.pkg("stellargraph", "0.7.1", "keras<2.2.5,>=2.2.3", "tensorflow>=1.12")
    machine = Machine(f.facts(packages=(tf, narrowed, f.pkg("keras", "2.3.0"))), f.FIXTURE_MATRIX)
    assert machine.companions_off_keras == ()


def test_keras_wheels_without_top_level_are_read_by_their_names() -> None:
    # keras' wheels carry no top_level.txt: the facts list no folders for them.
    tf = f.pkg("tensorflow", "2.12.1", "keras<2.13,>=2.12.0", top_level=("tensorflow",))
    facts = f.facts(packages=(tf, f.pkg("keras", "2.12.0"), f.pkg("keras-nightly", "2.13.0")))
    mixed = [x for x in run_one("packages.pins", facts) if x.cause == "keras-version"]
    assert len(mixed) == 1 and mixed[0].severity is Severity.ERROR
    assert "uninstall -y keras keras-nightly" in _text(mixed[0])
    alone = f.facts(packages=(tf, f.pkg("keras", "2.12.0")))
    assert not [x for x in run_one("packages.pins", alone) if x.cause == "keras-version"]


def test_tf_keras_beside_keras_3_is_no_second_keras() -> None:
    # TensorFlow 2.16's own arrangement: Keras 3 serves tf.keras, tf-keras (tf_keras/) Keras 2.
    tf = f.pkg("tensorflow", "2.16.1", "keras>=3.0.0", top_level=("tensorflow",))
    facts = f.facts(
        packages=(tf, f.pkg("keras", "3.3.3"), f.pkg("tf-keras", "2.16.0", top_level=("tf_keras",)))
    )
    assert not [x for x in run_one("packages.pins", facts) if "Two distributions" in x.summary]


def test_two_distributions_installing_the_tensorboard_package() -> None:
    tf = f.pkg("tensorflow", "2.15.1", *f.TF_REQUIRES, top_level=("tensorflow",))
    stable = f.pkg("tensorboard", "2.15.2", top_level=("tensorboard",))
    nightly = f.pkg("tb-nightly", "2.16.0a20231201")  # no top_level: read by its name
    found = [
        x
        for x in run_one("packages.pins", f.facts(packages=(tf, stable, nightly)))
        if x.cause == "tensorboard-duplicate-install"
    ]
    assert len(found) == 1 and found[0].severity is Severity.ERROR
    text = _text(found[0])
    assert "tensorboard 2.15.2, tb-nightly 2.16.0a20231201" in found[0].summary
    assert "uninstall -y tensorboard tb-nightly tensorflow-tensorboard" in text
    assert f"rm -rf {f.SITE}/~ensorboard*" in text
    # One TensorBoard and its plugins (other folders) are one installation.
    plugin = f.pkg("tensorboard-plugin-wit", "1.8.1", top_level=("tensorboard_plugin_wit",))
    one = f.facts(packages=(tf, stable, plugin, f.pkg("tensorboard-data-server", "0.7.2")))
    assert not [
        x for x in run_one("packages.pins", one) if x.cause == "tensorboard-duplicate-install"
    ]


_USER_SITE = "/home/dev/.local/lib/python3.11/site-packages"


def _user_site_facts(status: str) -> Facts:
    """A conda Python whose user site holds a second tensorflow that the import resolves to."""
    own = f.pkg("tensorflow", "2.15.1", *f.TF_REQUIRES, top_level=("tensorflow",))
    user = dataclasses.replace(own, version="2.16.1", location=_USER_SITE)
    return f.facts(
        python=f.python(
            env_kind="conda",
            tensorflow_origin=f"{_USER_SITE}/tensorflow",
            tensorflow_path_entry=_USER_SITE,
            tensorflow_path_kind="user-site",
        ),
        packages=(own, user, f.pkg("numpy", "1.26.4")),
        tensorflow=f.tensorflow(status=status, version="2.16.1" if status == "ok" else None),
    )


def test_a_tensorflow_in_the_user_site_over_the_environments_is_shadowing() -> None:
    found = run_one("packages.tensorflow", _user_site_facts("import-error"))
    assert [x.cause for x in found] == ["tf-shadowed-module"]
    assert found[0].severity is Severity.ERROR
    assert "tensorflow 2.16.1 in the user site-packages" in found[0].summary
    text = _text(found[0])
    # Uninstalled once, pip removes the copy found first: the user site's.
    assert "/opt/venv/bin/python -m pip uninstall -y tensorflow\n" in text + "\n"
    assert "uninstall -y tensorflow tensorflow" not in text
    # The import is checked with the examined interpreter, not whichever `python` is first.
    assert '/opt/venv/bin/python -c "import tensorflow' in text
    assert _USER_SITE in text
    # Imported and working, the shadow is only a note (observed beats inferred).
    imported = run_one("packages.tensorflow", _user_site_facts("ok"))
    assert [x.severity for x in imported if x.cause] == [Severity.INFO]


@pytest.mark.parametrize(
    ("version", "spec", "loads"),
    [
        ("3.20.3", "<3.20,>=3.9.2", True),  # above the cap, of the admitted major
        ("4.22.1", "<4,>=3.13", False),  # past 4.21, which refuses old generated code
        ("5.26.1", "<5.0.0dev,>=3.20.3", False),  # a major the range excludes
        ("3.19.0", "<3.20,>=3.9.2", False),  # inside the range: not above it
    ],
)
def test_a_protobuf_above_tensorflows_cap_that_still_loads_its_code(
    version: str, spec: str, loads: bool
) -> None:
    from tfdoctor.causes.software import protobuf_above_cap_loads

    assert protobuf_above_cap_loads(version, spec) is loads


def test_a_protobuf_above_the_cap_tensorflow_imported_with_is_a_note() -> None:
    tf = f.pkg("tensorflow", "2.10.0", "protobuf<3.20,>=3.9.2", top_level=("tensorflow",))
    found = [
        x
        for x in run_one("packages.pins", f.facts(packages=(tf, f.pkg("protobuf", "3.20.3"))))
        if "protobuf" in x.summary
    ]
    assert [x.severity for x in found] == [Severity.INFO]


@pytest.mark.parametrize(
    ("name", "folder"), [("tensorboard", "tensorboard"), ("keras", "keras")], ids=str
)
def test_one_distribution_in_the_user_site_and_the_environment_shares_no_folder(
    name: str, folder: str
) -> None:
    # Each copy has a folder of its own: the user site's shadows the environment's, and no
    # tensorboard/ or keras/ folder holds a mix of two releases.
    tf = f.pkg("tensorflow", "2.15.1", *f.TF_REQUIRES, top_level=("tensorflow",))
    env = f.pkg(name, "2.15.0", top_level=(folder,))
    user = dataclasses.replace(env, version="2.15.1", location=_USER_SITE)
    found = run_one("packages.pins", f.facts(packages=(tf, env, user)))
    assert not [x for x in found if "Two distributions install" in x.summary], found
    # Two distributions in one folder still are.
    nightly = f.pkg(f"{name}-nightly" if name == "keras" else "tb-nightly", "2.16.0")
    mixed = run_one("packages.pins", f.facts(packages=(tf, env, user, nightly)))
    assert [x for x in mixed if "Two distributions install" in x.summary]


def test_the_user_sites_tensorflow_removed_the_environments_is_not_installed_again() -> None:
    # The environment keeps its copy (the finding names it): a second install would add a
    # distribution beside it (tensorflow beside tensorflow-intel) or do nothing.
    found = run_one("packages.tensorflow", _user_site_facts("import-error"))
    text = _text(found[0])
    assert "uninstall -y tensorflow" in text
    assert "pip install" not in text, text


def test_the_user_sites_tensorflow_under_an_externally_managed_python_moves_to_a_venv() -> None:
    # PEP 668: pip changes nothing in this Python (the fix never forces it), so the way out of
    # the user site is a virtual environment, which does not read it: its install stays.
    facts = _user_site_facts("import-error")
    assert facts.python is not None
    managed = dataclasses.replace(
        facts,
        python=dataclasses.replace(facts.python, env_kind="system", externally_managed=True),
    )
    (found,) = run_one("packages.tensorflow", managed)
    assert found.fix is not None
    assert any("venv" in c for c in found.fix.commands), found.fix.commands
    assert any("install" in c for c in found.fix.commands), found.fix.commands
    # The words say what the commands do: a new environment, no uninstall.
    assert "uninstall" not in found.fix.text.lower()
    assert found.fix.commands[-1].startswith("~/.venvs/tf/bin/python -c"), found.fix.commands


def test_a_gpu_uuids_first_digits_name_that_gpu() -> None:
    """CUDA takes a UUID's first digits where they name one GPU: those of the GPU here hide
    nothing (CUDA C++ Programming Guide, "CUDA Environment Variables")."""
    facts = f.facts(
        environment={"CUDA_VISIBLE_DEVICES": "GPU-0f1e"}, tensorflow=f.tensorflow(devices=())
    )
    ctx = CheckContext(facts, f.FIXTURE_MATRIX)
    (finding,) = run_checks(ctx, select_checks(["gpu.visible"]))
    assert finding.cause != "cuda-visible-devices-hidden"


@pytest.mark.parametrize("visible", ["0", "GPU-0f1e2d3c"])
def test_cuinit_invalid_device_not_laid_on_a_valid_selection(visible: str) -> None:
    """cuInit's CUDA_ERROR_INVALID_DEVICE (101) beside a CUDA_VISIBLE_DEVICES that names the
    machine's own GPU (its index, its UUID): the variable hides nothing, so the finding names
    cuInit's result and does not tell the user to unset a valid selection."""
    finding = only(
        "gpu.visible",
        f.facts(
            environment={"CUDA_VISIBLE_DEVICES": visible},
            cuinit=CuInitFacts("error", 101, "CUDA_ERROR_INVALID_DEVICE", "libcuda.so.1"),
            tensorflow=f.tensorflow(devices=()),
        ),
    )
    assert finding.cause != "cuda-visible-devices-hidden", finding
    assert "CUDA_ERROR_INVALID_DEVICE (101)" in finding.summary
    assert "unset CUDA_VISIBLE_DEVICES" not in _text(finding)
