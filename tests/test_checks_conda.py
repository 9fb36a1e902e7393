"""packages.conda: one TensorFlow per conda environment, and conda's CUDA of the build's major."""

from __future__ import annotations

import pytest

from tests import factories as f
from tfdoctor.checks._context import CheckContext
from tfdoctor.checks.packages import check_conda_mix
from tfdoctor.facts import CondaFacts, CondaPackage, Facts
from tfdoctor.findings import Finding, Severity
from tfdoctor.machine import Machine

PREFIX = "/home/u/miniconda3/envs/tf"


def judge(facts: Facts) -> list[Finding]:
    return list(check_conda_mix(CheckContext(facts, f.FIXTURE_MATRIX)))


def in_conda(*packages: CondaPackage, **kw: object) -> Facts:
    return f.facts(
        python=f.python(env_kind="conda", prefix=PREFIX, executable=f"{PREFIX}/bin/python"),
        conda=CondaFacts(PREFIX, (CondaPackage("python", "3.11.7", "h", "conda-forge"), *packages)),
        **kw,
    )


def test_no_conda_no_finding() -> None:
    assert judge(f.facts()) == []


def test_conda_and_pip_tensorflow_of_two_releases_is_an_error() -> None:
    found = judge(in_conda(CondaPackage("tensorflow-base", "2.10.0", "cuda112", "conda-forge")))
    assert [x.severity for x in found] == [Severity.ERROR]
    assert found[0].cause == "tf-multiple-distributions"
    assert found[0].fix is not None
    assert found[0].fix.commands[0] == "conda remove -y --force tensorflow-base"
    assert '--no-deps "tensorflow==2.15.1"' in found[0].fix.commands[1]


def test_pip_tensorflow_seen_by_conda_is_one_installation() -> None:
    assert judge(in_conda(CondaPackage("tensorflow", "2.15.1", "pypi_0", "pypi"))) == []


def test_conda_cuda_of_another_major_is_replaced_by_the_extra() -> None:
    found = judge(in_conda(CondaPackage("cudatoolkit", "11.2.2", "h", "conda-forge")))
    assert [x.cause for x in found] == ["conda-cuda-mismatch"]
    assert found[0].fix is not None
    assert found[0].fix.commands == (
        "conda remove -y cudatoolkit",
        f'{PREFIX}/bin/python -m pip install "tensorflow[and-cuda]==2.15.1"',
    )


def test_conda_cuda_of_the_build_is_fine() -> None:
    facts = in_conda(
        CondaPackage("cudatoolkit", "11.2.2", "h", "conda-forge"),
        packages=(f.pkg("tensorflow", "2.10.1", top_level=("tensorflow",)),),
        tensorflow=f.tensorflow(version="2.10.1", cuda_version="11.2", cudnn_version="8"),
    )
    assert [x.severity for x in judge(facts)] == [Severity.OK]


def test_an_old_release_gets_conda_cuda_of_its_own_version() -> None:
    facts = in_conda(
        CondaPackage("cudatoolkit", "10.1.243", "h", "conda-forge"),
        packages=(f.pkg("tensorflow", "2.10.1", top_level=("tensorflow",)),),
        tensorflow=f.tensorflow(version="2.10.1", cuda_version="11.2", cudnn_version="8"),
    )
    found = judge(facts)
    assert found[0].fix is not None
    assert found[0].fix.commands == ("conda install -c conda-forge cudatoolkit=11.2 cudnn=8.1",)


def test_a_conda_tensorflow_gpu_is_conda_s_for_the_fixes_too() -> None:
    facts = in_conda(CondaPackage("tensorflow-gpu", "2.4.1", "h", "pkgs/main"))
    found = judge(facts)
    assert [x.cause for x in found] == ["tf-multiple-distributions"]
    conda_tf = Machine(facts, f.FIXTURE_MATRIX).conda_tensorflow
    assert conda_tf is not None and conda_tf.name == "tensorflow-gpu"


@pytest.mark.parametrize(
    ("system", "path", "found"),
    [
        pytest.param(
            "Linux",
            "/usr/bin:/home/u/miniconda3/condabin/:/bin",
            "/home/u/miniconda3/condabin/",
            id="linux",
        ),
        # A Windows facts file replayed here: split on Windows' ";", the drive's ":" kept whole.
        pytest.param(
            "Windows",
            r"C:\Windows;C:\Users\u\Miniconda3\CondaBin;C:\Python311",
            r"C:\Users\u\Miniconda3\CondaBin",
            id="windows",
        ),
        pytest.param("Windows", r"C:\Users\u\condabin-old;C:\Windows", None, id="windows-none"),
        pytest.param("Linux", "/usr/bin:/bin", None, id="linux-none"),
    ],
)
def test_condabin_is_read_with_the_examined_machines_path_separator(
    system: str, path: str, found: str | None
) -> None:
    plat = f.platform(system=system, machine="AMD64", os_name=system, libc="")
    facts = f.facts(platform=plat, python=f.python(env_kind="venv"), environment={"PATH": path})
    assert Machine(facts, f.FIXTURE_MATRIX).conda_outside == found


def test_path_entries_skip_empty_ones() -> None:
    windows = f.platform(system="Windows", machine="AMD64", os_name="Windows 11", libc="")
    facts = f.facts(platform=windows, environment={"PATH": r"C:\a;;C:\b;"})
    assert Machine(facts, f.FIXTURE_MATRIX).path_entries("PATH") == (r"C:\a", r"C:\b")
