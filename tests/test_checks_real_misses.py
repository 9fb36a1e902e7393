"""Checks on facts that real machines showed and the checks used to miss: a ROCm library the
import cannot open, a pip too old for the platform's wheels, a build whose CUDA predates the
GPU, a compiled companion from PyPI beside conda's TensorFlow, CUDA libraries missing where
the driver was not read, a companion whose changelog names its TensorFlow, and a release
PyPI publishes no wheel of for the machine; each with its near misses."""

from __future__ import annotations

import dataclasses

import pytest
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from tests import factories as f
from tfdoctor.checks import CHECKS, CheckFunc, run_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.checks.cuda import check_cuda_libraries
from tfdoctor.checks.gpu import check_compute_capability
from tfdoctor.checks.packages import (
    check_conda_mix,
    check_dependency_pins,
    check_tf_distributions,
    check_wheel_tags,
)
from tfdoctor.checks.tensorflow import check_tf_import
from tfdoctor.facts import (
    CondaFacts,
    CondaPackage,
    Facts,
    GpuFacts,
    LibraryCandidate,
    PackageFacts,
)
from tfdoctor.findings import Finding, Severity
from tfdoctor.matrix import load_matrix

MATRIX = load_matrix()


def judge(func: CheckFunc, facts: Facts) -> list[Finding]:
    """The check's findings, called directly (an exception fails the test)."""
    return list(func(CheckContext(facts, MATRIX)))


def through_registry(facts: Facts) -> list[Finding]:
    """Every check's findings as `check` reports them (observations overrule inferences)."""
    return list(run_checks(CheckContext(facts, MATRIX), CHECKS))


def causes_of(found: list[Finding]) -> list[str]:
    return [x.cause for x in found]


def gpu(name: str, capability: str) -> GpuFacts:
    return GpuFacts(0, name, "GPU-1", "00000000:01:00.0", capability, 11 * 2**30, 2**20)


# --- a ROCm runtime library the import cannot open -----------------------------------------


def rocm_import_error(library: str) -> Facts:
    return f.facts(
        packages=(f.pkg("tensorflow-rocm", "2.3.3", top_level=("tensorflow",)),),
        driver=f.NO_DRIVER,
        tensorflow=f.tensorflow(
            status="import-error",
            version="2.3.3",
            is_cuda_build=None,
            error_type="ImportError",
            error_message=f"{library}: cannot open shared object file: No such file or directory",
        ),
    )


@pytest.mark.parametrize("library", ["libamdhip64.so.3", "libamdhip64.so.5", "libhip_hcc.so"])
def test_a_rocm_library_the_import_cannot_open_is_a_rocm_release_mismatch(library: str) -> None:
    (finding,) = judge(check_tf_import, rocm_import_error(library))
    assert finding.severity is Severity.ERROR
    assert finding.cause == "rocm-version-mismatch"
    assert finding.fix is not None and "ROCm" in finding.fix.text
    assert library in finding.fix.text
    assert "cat /opt/rocm/.info/version" in finding.fix.commands


@pytest.mark.parametrize(
    ("library", "cause"),
    [
        # What explain names for the same line: a library the loader misses. A ROCm math
        # library too (librccl.so.1 off the loader's path is one): only HIP's runtime by
        # another generation's soname marks another ROCm release. A libhdf5 release is an HDF5
        # user's build for another HDF5 (the signature hdf5-library-release-missing).
        ("libfoo.so.1", "native-library-unresolved"),
        ("libhdf5.so.103", "hdf5-library-mismatch"),
        ("librocblas.so.0", "native-library-unresolved"),
        ("libcudart.so.11.0", "cuda-libs-missing"),
    ],
)
def test_other_libraries_the_import_cannot_open_are_not_rocm(library: str, cause: str) -> None:
    (finding,) = judge(check_tf_import, rocm_import_error(library))
    assert finding.cause == cause


# --- pip too old for the platform's wheels, TensorFlow not installed -------------------------


def no_tensorflow(system: str, os_name: str, pip: str | None, python: str = "3.8.7") -> Facts:
    machine = {"Darwin": "x86_64", "Linux": "x86_64"}[system]
    return f.facts(
        python=f.python(version=python, pip_version=pip),
        platform=f.platform(system=system, os_name=os_name, machine=machine, libc=""),
        packages=(f.pkg("pip", pip or "0"), f.pkg("setuptools", "49.2.1")),
        driver=f.NO_DRIVER,
        tensorflow=f.tensorflow(status="not-installed", version=None, devices=()),
    )


@pytest.mark.parametrize(
    ("system", "os_name", "pip", "needs"),
    [
        ("Darwin", "macOS 11.2.1", "20.2.4", "20.3"),
        ("Darwin", "macOS 12.6", "20.1", "20.3"),
        ("Linux", "Ubuntu 18.04.6 LTS", "9.0.1", "19.0"),
    ],
    ids=["macos11-pip20.2", "macos12-pip20.1", "linux-pip9"],
)
def test_a_pip_older_than_the_platforms_wheels_is_why_tensorflow_is_missing(
    system: str, os_name: str, pip: str, needs: str
) -> None:
    (finding,) = judge(check_tf_distributions, no_tensorflow(system, os_name, pip))
    assert finding.severity is Severity.ERROR  # the interpreter was asked: no module
    assert finding.cause == "pip-too-old"
    assert needs in finding.detail
    assert finding.fix is not None and "pip" in finding.fix.text
    commands = finding.fix.commands
    upgrade = next(i for i, c in enumerate(commands) if c.endswith("install --upgrade pip"))
    install = next(i for i, c in enumerate(commands) if '"tensorflow' in c)
    assert upgrade < install  # pip first, then TensorFlow


def test_a_pip_before_requires_python_is_upgraded_in_two_steps() -> None:
    (finding,) = judge(check_tf_distributions, no_tensorflow("Linux", "Ubuntu 16.04", "8.1.1"))
    assert finding.fix is not None
    assert 'install --upgrade "pip<21"' in finding.fix.commands[0]


@pytest.mark.parametrize(
    ("system", "os_name", "pip", "python"),
    [
        ("Darwin", "macOS 10.15.7", "20.2.4", "3.8.7"),  # macOS 10 reads 10.x tags
        ("Darwin", "macOS 11.2.1", "21.0", "3.8.7"),  # new enough
        ("Darwin", "macOS 11.2.1", None, "3.8.7"),  # pip unknown
        ("Linux", "Ubuntu 20.04 LTS", "19.3.1", "3.8.7"),  # reads manylinux2010
        # Older than the matrix's Pythons: TensorFlow 1.0 to 1.12 had cp34 wheels
        # (https://www.tensorflow.org/install/source#tested_build_configurations).
        ("Linux", "Ubuntu 16.04 LTS", "9.0.1", "3.4.10"),
    ],
    ids=["macos10", "macos11-pip21", "pip-unknown", "linux-pip19.3", "python34"],
)
def test_otherwise_tensorflow_is_simply_not_installed(
    system: str, os_name: str, pip: str | None, python: str
) -> None:
    (finding,) = judge(check_tf_distributions, no_tensorflow(system, os_name, pip, python))
    assert finding.cause == "tf-not-installed"


@pytest.mark.parametrize(
    ("status", "severity"),
    [
        # The interpreter was asked and has no `tensorflow` module: `import tensorflow` fails.
        pytest.param("not-installed", Severity.ERROR, id="interpreter-asked"),
        # --static: the listing alone, which a source tree on the path would contradict.
        pytest.param("skipped", Severity.WARNING, id="listing-only"),
    ],
)
@pytest.mark.parametrize(
    ("system", "cause"),
    [
        # A shell of another Python (python.org's 3.6 on Windows, pip 9) than the conda
        # environment TensorFlow went into: pip 9 reads win_amd64 wheels, none is installed.
        pytest.param("Windows", "tf-not-installed", id="not-installed"),
        # The same pip on Linux cannot read manylinux2010 tags: why none is installed.
        pytest.param("Linux", "pip-too-old", id="pip-too-old"),
    ],
)
def test_tensorflow_missing_is_an_error_where_the_interpreter_found_no_module(
    status: str, severity: Severity, system: str, cause: str
) -> None:
    facts = no_tensorflow("Linux", "Ubuntu 18.04.6 LTS", "9.0.1", "3.6.0")
    tf = facts.tensorflow
    assert facts.platform is not None and tf is not None
    if system == "Windows":
        facts = dataclasses.replace(
            facts,
            platform=dataclasses.replace(
                facts.platform, system="Windows", os_name="Windows 10 Pro", machine="AMD64"
            ),
        )
    facts = dataclasses.replace(facts, tensorflow=dataclasses.replace(tf, status=status))
    (finding,) = judge(check_tf_distributions, facts)
    assert finding.cause == cause
    assert finding.severity is severity


def test_a_python_no_release_has_a_wheel_for_is_that_cause_not_an_install() -> None:
    # Python 3.15: newer than any release's wheels, so "install TensorFlow" cannot work; the
    # missing TensorFlow is the Python's, with one that has wheels.
    (finding,) = judge(
        check_tf_distributions, no_tensorflow("Linux", "Ubuntu 26.04 LTS", "25.1", "3.15.0")
    )
    assert finding.cause == "tf-no-wheel-for-python"
    assert finding.fix is not None
    assert finding.fix.commands[0].endswith("-m venv .venv")
    assert "Python 3.15 " in finding.fix.text


@pytest.mark.parametrize(
    ("path", "env_kind", "named"),
    [
        pytest.param("/home/user/miniconda3/condabin:/usr/bin", "venv", True, id="conda-init"),
        pytest.param("/home/user/miniconda3/condabin:/usr/bin", "conda", False, id="in-conda"),
        pytest.param("/usr/local/bin:/usr/bin", "venv", False, id="no-conda"),
    ],
)
def test_tensorflow_missing_where_conda_is_installed_but_not_this_interpreter(
    path: str, env_kind: str, named: bool
) -> None:
    # `conda init` puts condabin on PATH: a TensorFlow installed into a conda environment is
    # one `conda activate` away from the interpreter that ran, which is none of conda's.
    facts = no_tensorflow("Linux", "Ubuntu 20.04 LTS", "23.0.1")
    assert facts.python is not None
    facts = dataclasses.replace(
        facts,
        python=dataclasses.replace(facts.python, env_kind=env_kind),
        environment={"PATH": path},
    )
    (finding,) = judge(check_tf_distributions, facts)
    assert finding.cause == "tf-not-installed"
    assert finding.fix is not None
    assert ("conda activate" in finding.fix.text) is named
    assert ("conda env list" in finding.fix.commands) is named
    assert any('"tensorflow==' in c for c in finding.fix.commands)  # or install it here


# --- a build whose CUDA predates the GPU ---------------------------------------------------


def old_build(tf: str, cuda: str, card: GpuFacts) -> Facts:
    return f.facts(
        packages=(f.pkg("tensorflow-gpu", tf, top_level=("tensorflow",)), f.pkg("numpy", "1.16.0")),
        driver=f.driver(driver_version="410.79", cuda_version="10.0", gpus=(card,)),
        tensorflow=f.tensorflow(
            version=tf, cuda_version=cuda, cudnn_version="7", compute_capabilities=()
        ),
    )


@pytest.mark.parametrize(
    ("tf", "cuda", "card", "first"),
    [
        ("1.12.0", "9.0", gpu("GeForce RTX 2080 Ti", "7.5"), "CUDA 10.0"),
        ("1.11.0", "9.0", gpu("Quadro RTX 6000", "7.5"), "CUDA 10.0"),
        ("2.2.3", "10.1", gpu("NVIDIA A100-SXM4-40GB", "8.0"), "CUDA 11.0"),
        ("1.14.0", "10.0", gpu("NVIDIA GeForce RTX 3090", "8.6"), "CUDA 11.1"),
        # Xavier (7.2) under CUDA 9.0: the GPU data's first CUDA for it (9.1), the table
        # explain reads too.
        ("1.12.0", "9.0", gpu("Xavier", "7.2"), "CUDA 9.1"),
        # CUDA 11.0 is older than 11.1, the first to know 8.6, and minor version
        # compatibility begins with 11.1: the same answer explain gives.
        ("1.14.0", "11.0", gpu("NVIDIA GeForce RTX 3090", "8.6"), "CUDA 11.1"),
    ],
    ids=[
        "tf1.12-turing",
        "tf1.11-turing",
        "tf2.2-a100",
        "tf1.14-ampere",
        "tf1.12-xavier",
        "cuda11.0-ampere",
    ],
)
def test_a_build_whose_cuda_predates_the_gpu_is_warned_with_that_cause(
    tf: str, cuda: str, card: GpuFacts, first: str
) -> None:
    found = judge(check_compute_capability, old_build(tf, cuda, card))
    assert [x.severity for x in found] == [Severity.WARNING]
    assert found[0].cause == "cuda-release-predates-gpu"
    assert first in found[0].summary and f"CUDA {cuda}" in found[0].summary
    assert found[0].fix is not None and "tensorflow-cpu" not in " ".join(found[0].fix.commands)
    # explain's fix for the same cause: the oldest line with machine code for the GPU.
    assert f"is newer than CUDA {cuda}" in found[0].fix.text


def test_the_first_release_built_with_the_cuda_that_knows_the_gpu_counts_early_ones() -> None:
    # TensorFlow's tested build configurations: 1.13.1 is the first built with CUDA 10.0,
    # the first to know Turing (the matrix's early_releases rows), not 1.15.
    found = judge(check_compute_capability, old_build("1.12.0", "9.0", gpu("RTX 2080 Ti", "7.5")))
    assert found[0].fix is not None
    assert "TensorFlow 1.13.1, with CUDA 10.0" in found[0].fix.text
    assert "TensorFlow 1.15)" not in found[0].fix.text


def test_listing_the_gpu_does_not_overrule_a_cuda_older_than_it() -> None:
    # The library calls fail after TensorFlow lists the GPU: the listing refutes nothing.
    facts = old_build("1.12.0", "9.0", gpu("GeForce RTX 2080 Ti", "7.5"))
    found = [x for x in through_registry(facts) if x.cause == "cuda-release-predates-gpu"]
    assert [x.severity for x in found] == [Severity.WARNING]


@pytest.mark.parametrize(
    ("tf", "cuda", "card"),
    [
        ("1.12.0", "9.0", gpu("GeForce GTX 1080", "6.1")),  # Pascal: CUDA 8 knew it
        ("1.13.1", "10.0", gpu("GeForce RTX 2080 Ti", "7.5")),  # CUDA 10.0 knows Turing
        # CUDA 11.2 on Ada (first known by 11.8): a newer 11.x serves the build (minor version
        # compatibility), as explain's reading of the same pair says.
        ("1.14.0", "11.2", gpu("NVIDIA GeForce RTX 4090", "8.9")),
    ],
    ids=["pascal-cuda9", "turing-cuda10", "ada-cuda11.2"],
)
def test_a_cuda_that_knows_the_gpu_leaves_the_architectures_unknown(
    tf: str, cuda: str, card: GpuFacts
) -> None:
    found = judge(check_compute_capability, old_build(tf, cuda, card))
    assert [(x.severity, x.cause) for x in found] == [(Severity.UNKNOWN, "")]


def test_where_the_wheels_architectures_are_known_they_judge_the_gpu() -> None:
    # 2.15's matrix row lists its architectures: the PTX path judges, not the CUDA's age.
    found = judge(check_compute_capability, f.facts())
    assert not {"gpu-known-failure", "cuda-release-predates-gpu"} & set(causes_of(found))


# --- a compiled companion from PyPI beside conda's TensorFlow --------------------------------

PREFIX = "/home/u/miniconda3/envs/tfq"


def conda_env(*conda: CondaPackage, extra: tuple[PackageFacts, ...] = ()) -> Facts:
    return f.facts(
        python=f.python(
            version="3.6.10", env_kind="conda", prefix=PREFIX, executable=f"{PREFIX}/bin/python"
        ),
        packages=(f.pkg("tensorflow", "2.1.0", top_level=("tensorflow",)), *extra),
        tensorflow=f.tensorflow(version="2.1.0", cuda_version="10.1", cudnn_version="7"),
        conda=CondaFacts(PREFIX, (CondaPackage("python", "3.6.10", "h", "pkgs/main"), *conda)),
    )


CONDA_TF = (
    CondaPackage("tensorflow", "2.1.0", "gpu_py36h2e5cdaa_0", "pkgs/main"),
    CondaPackage("tensorflow-base", "2.1.0", "gpu_py36h6c5654b_0", "pkgs/main"),
)


@pytest.mark.parametrize(
    "companion",
    [
        CondaPackage("tensorflow-quantum", "0.2.0", "pypi_0", "pypi"),
        CondaPackage("tensorflow-text", "2.1.1", "pypi_0", "pypi"),
        CondaPackage("tensorflow-addons", "0.9.1", "pypi_0", "pypi"),
    ],
    ids=lambda c: c.name,
)
def test_a_compiled_companion_from_pypi_beside_condas_tensorflow(companion: CondaPackage) -> None:
    found = judge(check_conda_mix, conda_env(*CONDA_TF, companion))
    assert [(x.severity, x.cause) for x in found] == [(Severity.WARNING, "companion-mismatch")]
    assert companion.name in found[0].summary and "pkgs/main" in found[0].summary
    fix = found[0].fix
    assert fix is not None and "PyPI" in fix.text
    assert fix.commands[0] == "conda remove -y --force tensorflow-base tensorflow"
    assert fix.commands[1] == f'{PREFIX}/bin/python -m pip install "tensorflow==2.1.0"'


@pytest.mark.parametrize(
    ("version", "dist"),
    [
        # 1.15.0's plain tensorflow wheel was its GPU build (the 1.15.0 release notes).
        ("1.15.0", "tensorflow"),
        ("1.15.2", "tensorflow-gpu"),
        ("2.0.0", "tensorflow-gpu"),
    ],
)
def test_before_2_1_pypis_gpu_build_is_the_releases_own(version: str, dist: str) -> None:
    facts = dataclasses.replace(
        conda_env(
            CondaPackage("tensorflow-base", version, "gpu_py37h", "pkgs/main"),
            CondaPackage("tensorflow-io", "0.8.0", "pypi_0", "pypi"),
        ),
        packages=(f.pkg("tensorflow", version, top_level=("tensorflow",)),),
        tensorflow=f.tensorflow(version=version, cuda_version="10.0", cudnn_version="7"),
    )
    (finding,) = judge(check_conda_mix, facts)
    assert finding.fix is not None
    assert finding.fix.commands[-1].endswith(f'"{dist}=={version}"')


def test_the_warning_stands_where_tensorflow_itself_imported() -> None:
    facts = conda_env(*CONDA_TF, CondaPackage("tensorflow-quantum", "0.2.0", "pypi_0", "pypi"))
    found = [x for x in through_registry(facts) if x.check == "packages.conda"]
    assert [(x.severity, x.cause) for x in found] == [(Severity.WARNING, "companion-mismatch")]


@pytest.mark.parametrize(
    "packages",
    [
        # The companion from conda's own channel: built against conda's TensorFlow.
        (*CONDA_TF, CondaPackage("tensorflow-text", "2.1.1", "h", "pkgs/main")),
        # A pure-Python companion links nothing.
        (*CONDA_TF, CondaPackage("tensorflow-hub", "0.8.0", "pypi_0", "pypi")),
        # A runtime of its own, not built against TensorFlow.
        (*CONDA_TF, CondaPackage("tflite-runtime", "2.1.0", "pypi_0", "pypi")),
        # TensorFlow itself from PyPI, inside conda: what the companion was built for.
        (
            CondaPackage("tensorflow", "2.1.0", "pypi_0", "pypi"),
            CondaPackage("tensorflow-quantum", "0.2.0", "pypi_0", "pypi"),
        ),
    ],
    ids=["text-from-conda", "pure-python", "tflite-runtime", "pip-tensorflow"],
)
def test_no_companion_warning_otherwise(packages: tuple[CondaPackage, ...]) -> None:
    assert "companion-mismatch" not in causes_of(judge(check_conda_mix, conda_env(*packages)))


# --- CUDA libraries missing where the driver was not read ------------------------------------

TOOLKIT = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v10.2\\bin"


def windows_cuda(driver_read: bool, toolkit: bool) -> Facts:
    cublas = (
        (LibraryCandidate(f"{TOOLKIT}\\cublas64_10.dll", "PATH", "10.2", "filename", True),)
        if toolkit
        else ()
    )
    libs = f.cuda_libs(
        f.lib("cudart", "cudart64_101.dll"),
        f.lib("cublas", "cublas64_10.dll", *cublas),
    )
    return f.facts(
        python=f.python(version="3.7.6", env_kind="system"),
        platform=f.platform(system="Windows", os_name="Windows 10", machine="AMD64", libc=""),
        packages=(f.pkg("tensorflow", "2.1.0", top_level=("tensorflow",)),),
        driver=f.NO_DRIVER if driver_read else None,
        cuda_libs=dataclasses.replace(libs, cuda_major=10, cudnn_major=7),
        tensorflow=f.tensorflow(
            version="2.1.0",
            cuda_version="10.1",
            cudnn_version="7",
            devices=(),
            log_errors=("Could not load dynamic library 'cudart64_101.dll'",),
        ),
    )


def test_a_toolkit_of_another_cuda_without_the_builds_runtime_is_an_error() -> None:
    (finding,) = judge(check_cuda_libraries, windows_cuda(driver_read=False, toolkit=True))
    assert (finding.severity, finding.cause) == (Severity.ERROR, "cuda-libs-missing")
    assert "cudart" in finding.summary
    assert finding.fix is not None and "10.1" in finding.fix.text


@pytest.mark.parametrize(
    ("driver_read", "toolkit"),
    [(True, True), (False, False), (True, False)],
    ids=["no-gpu-read", "nothing-installed", "no-gpu-nothing-installed"],
)
def test_missing_cuda_libraries_without_a_gpu_or_a_toolkit_are_a_note(
    driver_read: bool, toolkit: bool
) -> None:
    (finding,) = judge(check_cuda_libraries, windows_cuda(driver_read, toolkit))
    assert finding.severity is Severity.INFO


# --- companions the table pairs by their changelog, and the releases it names --------------


def with_companion(tf: str, name: str, version: str, *requires: str) -> Facts:
    return f.facts(
        python=f.python(version="3.8.5"),
        packages=(
            f.pkg("tensorflow", tf, top_level=("tensorflow",)),
            f.pkg(name, version, *requires),
        ),
        tensorflow=f.tensorflow(version=tf),
    )


@pytest.mark.parametrize(
    ("tf", "sonnet", "floor", "moved"),
    [
        # No release the table names fits 1.2: TensorFlow moves to the floor.
        ("1.2.1", "1.16", "1.5.0", '"tensorflow<2.0,>=1.5.0"'),
        # Every Sonnet 1 import reads tf.contrib or tf.GraphKeys: none fits TensorFlow 2, so
        # no older Sonnet 1 is offered there.
        ("2.3.0", "1.35", "1.8.0", '"tensorflow<2.0,>=1.8.0"'),
        # The newest release whose changelog floor admits the TensorFlow.
        ("1.4.0", "1.16", "1.5.0", '"dm-sonnet==1.14.*"'),
        ("1.7.0", "1.30", "1.8.0", '"dm-sonnet==1.16.*"'),
    ],
)
def test_a_sonnet_release_under_an_older_tensorflow_than_its_changelog_names(
    tf: str, sonnet: str, floor: str, moved: str
) -> None:
    found = judge(check_dependency_pins, with_companion(tf, "dm-sonnet", sonnet, "six"))
    mismatch = [x for x in found if x.cause == "companion-mismatch"]
    assert [x.severity for x in mismatch] == [Severity.ERROR]
    assert f"tensorflow<2.0,>={floor}" in mismatch[0].summary
    assert mismatch[0].fix is not None
    assert any(moved in c for c in mismatch[0].fix.commands), mismatch[0].fix


@pytest.mark.parametrize(
    ("tf", "sonnet"), [("1.5.0", "1.16"), ("1.8.0", "1.30"), ("1.2.1", "1.15")]
)
def test_no_sonnet_finding_within_its_range_or_without_a_row(tf: str, sonnet: str) -> None:
    found = judge(check_dependency_pins, with_companion(tf, "dm-sonnet", sonnet, "six"))
    assert "companion-mismatch" not in causes_of(found)


def test_a_companion_fix_names_every_release_built_for_the_tensorflow() -> None:
    facts = with_companion("2.3.0", "tensorflow-io", "0.14.0", "tensorflow<2.3.0,>=2.2.0")
    (finding,) = [x for x in judge(check_dependency_pins, facts) if x.cause]
    assert finding.cause == "companion-mismatch"
    assert finding.fix is not None
    assert "releases 0.15 to 0.16" in finding.fix.text
    assert finding.fix.commands[-1].endswith('"tensorflow-io==0.16.*"')


def test_one_release_for_the_tensorflow_is_named_alone() -> None:
    facts = with_companion("2.4.1", "tensorflow-io", "0.14.0", "tensorflow<2.3.0,>=2.2.0")
    (finding,) = [x for x in judge(check_dependency_pins, facts) if x.cause]
    assert finding.fix is not None and " to " not in finding.fix.text


# --- a release PyPI publishes no wheel of for this machine ------------------------------------


def tfdf_on(machine: str, editable: bool = False) -> Facts:
    tfdf = dataclasses.replace(
        f.pkg("tensorflow-decision-forests", "1.8.1", "tensorflow~=2.15.0"), editable=editable
    )
    return f.facts(
        python=f.python(version="3.9.18"),
        platform=f.platform(machine=machine),
        packages=(f.pkg("tensorflow", "2.15.0", top_level=("tensorflow",)), tfdf),
        driver=f.NO_DRIVER,
        tensorflow=f.tensorflow(version="2.15.0", is_cuda_build=False, devices=()),
    )


def test_a_release_without_a_wheel_for_this_machine_is_a_wheel_mismatch() -> None:
    (finding,) = judge(check_wheel_tags, tfdf_on("aarch64"))
    assert (finding.severity, finding.cause) == (Severity.WARNING, "wheel-mismatch")
    assert "tensorflow-decision-forests 1.8.1" in finding.summary
    assert "Linux x86-64" in finding.detail
    assert finding.fix is not None
    assert finding.fix.commands[-1].endswith("uninstall -y tensorflow-decision-forests")


@pytest.mark.parametrize(
    ("machine", "editable"), [("x86_64", False), ("aarch64", True)], ids=["x86-64", "editable"]
)
def test_a_release_with_a_wheel_here_or_built_here_is_not_judged(
    machine: str, editable: bool
) -> None:
    (finding,) = judge(check_wheel_tags, tfdf_on(machine, editable))
    assert finding.severity is Severity.INFO and finding.cause == ""


@pytest.mark.parametrize(
    ("channel", "cause"), [("conda-forge", ""), ("pypi", "wheel-mismatch")], ids=lambda x: x
)
def test_a_release_a_conda_channel_built_is_no_pypi_wheel(channel: str, cause: str) -> None:
    facts = dataclasses.replace(
        tfdf_on("aarch64"),
        conda=CondaFacts(
            "/opt/conda",
            (CondaPackage("tensorflow-decision-forests", "1.8.1", "py39_0", channel),),
        ),
    )
    (finding,) = judge(check_wheel_tags, facts)
    assert finding.cause == cause


# --- a ROCm build's import output in the CUDA build's words -----------------------------------


def test_a_rocm_builds_skipped_gpu_is_told_of_rocm_not_of_cuda() -> None:
    """tensorflow-rocm printed gpu_device.cc's summary as it imported: check's reading of the
    output, as explain's, names ROCm's libraries and the ROCm release of its version, and no
    tensorflow[and-cuda] of a version tensorflow never had."""
    facts = f.facts(
        packages=(f.pkg("tensorflow-rocm", "2.14.0.600", top_level=("tensorflow",)),),
        driver=f.NO_DRIVER,
        cuda_libs=None,
        tensorflow=f.tensorflow(
            version="2.14.0.600",
            is_cuda_build=False,
            is_rocm_build=True,
            cuda_version=None,
            cudnn_version=None,
            devices=(),
            log_errors=(
                "2024-03-01 10:00:00.100000: W tensorflow/core/common_runtime/gpu/"
                "gpu_device.cc:2211] Cannot dlopen some GPU libraries. Please make sure the "
                "missing libraries mentioned above are installed properly if you would like to "
                "use GPU.",
            ),
        ),
    )
    found = [x for x in through_registry(facts) if x.id == "tensorflow.output"]
    assert found and found[0].cause == "rocm-libs-off-path"
    for finding in found:
        assert finding.fix is not None
        assert not any("and-cuda" in c or "cudnn" in c for c in finding.fix.commands)
    assert found[0].fix is not None and "ROCm 6.0.0" in found[0].fix.text


# --- Keras missing or out of step under a line released with its own Keras ------------------

#: Keras 2 releases on PyPI, one per line, and Keras 3: what pip picks from.
KERAS_RELEASES = ("2.4.3", "2.6.0", "2.7.0", "2.10.0", "2.13.1", "2.15.0", "3.0.0")
#: TensorFlow 2.6.0's Requires-Dist on keras and NumPy (its wheel's METADATA).
TF26_REQUIRES = ("keras~=2.6", "numpy~=1.19.2")


def pip_picks(spec: str) -> str:
    """The release ``pip install "keras<spec>"`` installs: the newest the specifier admits."""
    return str(max(SpecifierSet(spec).filter(KERAS_RELEASES), key=Version))


def tf26(keras: str | None) -> Facts:
    """TensorFlow 2.6.0 that imported, with ``keras`` installed (None: not installed)."""
    tf = dataclasses.replace(
        f.pkg("tensorflow", "2.6.0", *TF26_REQUIRES, top_level=("tensorflow",)),
        requires_missing=() if keras else ("keras",),
    )
    return f.facts(
        packages=(tf, f.pkg("numpy", "1.19.5"), *([f.pkg("keras", keras)] if keras else [])),
        driver=f.NO_DRIVER,
        tensorflow=f.tensorflow(version="2.6.0", is_cuda_build=False, devices=()),
    )


@pytest.mark.parametrize(
    ("keras", "cause"),
    [
        # conda's TensorFlow 2.6 build without the keras package: tf.keras has nothing to load.
        pytest.param(None, "dependency-missing", id="missing"),
        # Below the declared range: `keras~=2.6` would take keras 2.15, as out of step.
        pytest.param("2.4.3", "keras-version", id="below-range"),
    ],
)
def test_the_keras_fix_of_an_in_step_line_installs_that_lines_keras(
    keras: str | None, cause: str
) -> None:
    facts = tf26(keras)
    (finding,) = [x for x in judge(check_dependency_pins, facts) if "keras" in x.summary]
    assert finding.cause == cause
    assert finding.fix is not None
    (command,) = finding.fix.commands
    spec = command.split('"keras', 1)[1].split('"', 1)[0]
    picked = pip_picks(spec)
    assert picked == "2.6.0"
    after = dataclasses.replace(
        facts,
        packages=(
            *(p for p in facts.packages or () if p.name != "keras"),
            f.pkg("keras", picked),
        ),
    )
    after_tf = after.package("tensorflow")
    assert after_tf is not None and after.packages is not None
    after = dataclasses.replace(
        after,
        packages=tuple(
            dataclasses.replace(p, requires_missing=()) if p is after_tf else p
            for p in after.packages
        ),
    )
    left = [x for x in through_registry(after) if x.severity.rank >= Severity.WARNING.rank]
    assert not [x for x in left if "keras" in x.summary], left


@pytest.mark.parametrize(
    ("version", "declared", "runs_with"),
    [
        # `keras~=2.6` admits the next line's keras: narrowed to the line's own.
        pytest.param("2.6.0", "~=2.6", "==2.6.*", id="compatible-release"),
        # A range within the line is what the build runs with as declared.
        pytest.param("2.13.1", "<2.14,>=2.13.1", "<2.14,>=2.13.1", id="within-line"),
        # A floor above the line's first release and no cap: the floor, inside the line.
        pytest.param("2.13.1", ">=2.13.1", ">=2.13.1,==2.13.*", id="floor-only"),
        # Keras 3 from 2.16 is not released in step: the declared range.
        pytest.param("2.16.1", ">=3.0.0", ">=3.0.0", id="not-in-step"),
    ],
)
def test_runs_with_narrows_keras_only_where_its_range_admits_the_next_line(
    version: str, declared: str, runs_with: str
) -> None:
    tf = f.pkg(
        "tensorflow", version, f"keras{declared}", "protobuf>=3.20.3", top_level=("tensorflow",)
    )
    facts = f.facts(
        packages=(tf,),
        driver=f.NO_DRIVER,
        tensorflow=f.tensorflow(version=version, is_cuda_build=False, devices=()),
    )
    m = CheckContext(facts, MATRIX).machine
    assert SpecifierSet(m.runs_with("keras") or "") == SpecifierSet(runs_with)
    # Another distribution's range is the declared one, unchanged.
    assert m.runs_with("protobuf") == m.declared_range("protobuf") == ">=3.20.3"
