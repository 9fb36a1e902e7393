"""conda's and pixi's solvers refusing an environment's description: an environment file
exported on another platform, TensorFlow companions asked of conda that PyPI publishes, and a
system version (virtual package) the solver does not see."""

from __future__ import annotations

import platform
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

from tests import factories as f
from tests.explaining import explained, fix_text, top_error

_OTHER = "conda-env-file-other-platform"
_PYPI = "conda-package-pypi-only"
_VIRTUAL = "conda-virtual-package-mismatch"


def _causes(text: str) -> set[str]:
    return {f.cause for f in explained(text).findings if f.cause}


def test_linux_runtime_builds_read_as_a_file_of_another_platform() -> None:
    text = (
        "$ conda env create -f envs/dlc-ubuntu.yaml\n"
        "ResolvePackageNotFound:\n"
        "  - libstdcxx-ng==8.2.0=hdf63c60_1\n"
        "  - zlib==1.2.11=h7b6447c_3\n"
        "  - libgcc-ng==8.2.0=hdf63c60_1\n"
    )
    top = top_error(explained(text))
    assert top.cause == _OTHER
    fix = fix_text(top)
    assert "--from-history" in fix and "envs/dlc-ubuntu.yaml" in fix and "libgcc-ng" in fix


def test_windows_runtime_names_read_as_a_file_of_another_platform() -> None:
    text = "ResolvePackageNotFound: \n  - vs2015_runtime=14.16.27012=hf0eaf9b_1\n  - vc=14.1\n"
    top = top_error(explained(text))
    assert top.cause == _OTHER and "environment.yml" in fix_text(top)


def test_exact_builds_of_packages_every_platform_has() -> None:
    text = "ResolvePackageNotFound:\n  - python=3.7.3=h0371630_0\n  - openssl=1.1.1c=h7b6447c_1\n"
    assert top_error(explained(text)).cause == _OTHER


def test_one_exact_build_of_tensorflow_is_not_read_as_a_platform() -> None:
    text = "ResolvePackageNotFound:\n  - tensorflow-gpu=2.1.0=h0d30ee6_0\n"
    assert not _causes(text) & {_OTHER, _PYPI}


def test_companions_pypi_publishes_go_under_pip() -> None:
    text = "ResolvePackageNotFound: \n  - tensorflow-datasets=1.3.0\n  - tensorflow-addons=0.7.1\n"
    top = top_error(explained(text))
    assert top.cause == _PYPI
    fix = fix_text(top)
    assert "pip:" in fix and "pip install" in fix and "tensorflow-addons==0.7.1" in fix


def test_a_companion_release_pypi_never_had_is_not_sent_to_pip() -> None:
    # tensorflow-addons has no 9.9 on PyPI: moving it to pip would not help.
    assert _PYPI not in _causes("ResolvePackageNotFound:\n  - tensorflow-addons=9.9\n")


def test_conda_own_tensorflow_builds_are_not_pypi_only() -> None:
    text = "ResolvePackageNotFound:\n  - tensorflow-gpu=2.8.0\n  - tensorflow-estimator=2.8\n"
    assert _PYPI not in _causes(text)


def test_the_words_in_an_environment_file_alone_are_not_a_failure() -> None:
    text = "dependencies:\n  - libgcc-ng=7.2.0=hdf63c60_3\n  - tensorflow-addons=0.6.0\n"
    assert not _causes(text) & {_OTHER, _PYPI, _VIRTUAL}


def test_pixi_excluding_a_macos_only_wheel_asks_for_the_declared_macos() -> None:
    text = (
        "    failed to resolve `pypi-dependencies`, due to underlying error\n"
        "  ╰─▶ The following packages are incompatible\n"
        "      └─ tensorflow-macos * cannot be installed because there are no viable options:\n"
        "         └─ tensorflow-macos 2.9.0 | 2.9.2 | 2.10.0 is excluded because none of the\n"
        "      artifacts are compatible with the Python interpreter or glibc version and there\n"
        "      are no supported sdists\n"
    )
    top = top_error(explained(text))
    assert top.cause == _VIRTUAL
    assert "[system-requirements]" in fix_text(top) and "macos" in fix_text(top)


def test_pixi_excluding_a_package_with_linux_wheels_is_not_read_as_macos() -> None:
    text = (
        "      └─ tensorflow-io 0.1.0 | 0.2.0 is excluded because none of the artifacts are "
        "compatible with the Python interpreter or glibc version and there are no supported "
        "sdists\n"
    )
    assert _VIRTUAL not in _causes(text)


@pytest.mark.parametrize(
    ("line", "words"),
    [
        (
            "  - nothing provides __cuda needed by tensorflow-2.10.0-cuda112py310he87a039_0",
            "nvidia-smi",
        ),
        ("   └─ __cuda >=11.8, which is missing on the system.", "Below 11.8, no declaration"),
        ("   └─ __osx >=12, which is missing on the system.", "CONDA_OVERRIDE_OSX="),
        ("   └─ __glibc >=2.28,<3.0.a0 *, which is missing on the system.", "ldd --version"),
    ],
    ids=["libsolv-cuda", "libmamba-cuda-floor", "libmamba-osx", "libmamba-glibc"],
)
def test_a_virtual_package_the_solver_lacks(line: str, words: str) -> None:
    top = top_error(explained(line + "\n"))
    assert top.cause == _VIRTUAL and words in fix_text(top)


@pytest.mark.parametrize("package", ["__cuda", "__osx", "__glibc"])
def test_the_override_is_never_the_floor_the_builds_ask_for(package: str) -> None:
    # Declaring the floor would hand a machine below it builds it cannot run.
    line = f"   └─ {package} >=99.1, which is missing on the system.\n"
    top = top_error(explained(line))
    assert top.fix is not None and "=99.1" not in " ".join(top.fix.commands)


@pytest.mark.skipif(
    platform.system() != "Linux" or platform.libc_ver()[0] != "glibc", reason="glibc's ldd"
)
def test_the_glibc_override_command_reads_this_machines_glibc() -> None:
    line = "   └─ __glibc >=2.17,<3.0.a0 *, which is missing on the system.\n"
    top = top_error(explained(line))
    assert top.fix is not None
    (export,) = [c for c in top.fix.commands if c.startswith("export ")]
    out = subprocess.run(
        ["bash", "-c", f'{export} && printf %s "$CONDA_OVERRIDE_GLIBC"'],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out == platform.libc_ver()[1]


def test_the_cuda_override_on_windows_is_set_with_cmds_and_powershells_commands() -> None:
    # A Windows prompt and path place the solver on Windows: no export, no sed there.
    text = (
        "(base) PS C:\\Users\\me> conda install -c conda-forge tensorflow-gpu\n"
        "   └─ __cuda >=11.8, which is missing on the system.\n"
    )
    top = top_error(explained(text))
    assert top.cause == _VIRTUAL and top.fix is not None
    assert '$env:CONDA_OVERRIDE_CUDA = "X.Y"' in top.fix.commands
    assert not any("export " in c or "sed " in c for c in top.fix.commands)


def test_another_platforms_virtual_package_is_not_a_version_to_declare() -> None:
    assert _VIRTUAL not in _causes("   └─ __win, which is missing on the system.\n")


def test_the_build_string_command_keeps_pip_pins(tmp_path: Path) -> None:
    env = tmp_path / "environment.yml"
    env.write_text(
        "dependencies:\n  - zlib=1.2.11=h7b6447c_3\n  - libgcc-ng=7.2.0=hdf63c60_3\n"
        "  - pip:\n    - tensorflow==2.4.1\n"
    )
    text = f"conda env create -f {env}\nResolvePackageNotFound:\n  - libgcc-ng==7.2.0=hdf63c60_3\n"
    fix = top_error(explained(text)).fix
    assert fix is not None
    subprocess.run(fix.commands[0], shell=True, check=True)  # the fix's own command
    out = (tmp_path / "environment-nobuilds.yml").read_text()
    assert "  - zlib=1.2.11\n" in out and "libgcc" not in out and "tensorflow==2.4.1" in out


def test_a_glibc_the_machine_really_lacks_is_the_system_too_old() -> None:
    line = "   └─ __glibc >=2.38,<3.0.a0 *, which is missing on the system.\n"
    # The machine's facts (where TensorFlow imports) only note the log's finding: its cause
    # is what is judged here.
    machine = f.facts(platform=f.platform(libc_version="2.35"))
    assert explained(line, machine).findings[0].cause == "glibc-too-old"
    newer = f.facts(platform=f.platform(libc_version="2.39"))
    assert explained(line, newer).findings[0].cause == _VIRTUAL


def test_a_windows_gpu_file_on_a_mac_points_to_tensorflow_for_macos() -> None:
    text = (
        "(base) user@MacBook-Air ~ % conda env create -f DS-GPU.yml\n"
        "ResolvePackageNotFound:\n"
        "  - cudatoolkit==10.1.243=h74a9793_0\n"
        "  - vc==14.2=h21ff451_1\n"
    )
    fix = fix_text(top_error(explained(text)))
    assert "tensorflow-macos" in fix and "cudatoolkit" in fix


def test_cuda_packages_without_a_mac_shown_name_no_macos_build() -> None:
    text = (
        "ResolvePackageNotFound:\n  - cudatoolkit==10.1.243=h74a9793_0\n  - vc==14.2=h21ff451_1\n"
    )
    assert "tensorflow-macos" not in fix_text(top_error(explained(text)))


def test_a_linux_package_unresolved_on_linux_is_not_another_platforms() -> None:
    # The conda that refused runs on Linux (its own frame's path): libgcc-ng is this
    # platform's package, so the file is not another platform's export for it.
    text = (
        'File "/home/user/anaconda3/lib/python3.8/site-packages/conda/cli/main.py", line 1\n'
        "ResolvePackageNotFound:\n  - libgcc-ng==7.2.0=hdf63c60_3\n"
    )
    for finding in explained(text).findings:
        assert "libgcc-ng exists for Linux only" not in finding.detail
        assert finding.fix is None or "packages of another platform" not in fix_text(finding)


def test_a_windows_package_unresolved_on_linux_stays_another_platforms() -> None:
    text = (
        'File "/home/user/anaconda3/lib/python3.8/site-packages/conda/cli/main.py", line 1\n'
        "ResolvePackageNotFound:\n  - vs2015_runtime=14.16.27012=hf0eaf9b_1\n"
    )
    top = top_error(explained(text))
    assert top.cause == _OTHER and "vs2015_runtime exists for Windows only" in top.detail


def test_the_pypi_fix_also_drops_the_builds_conda_did_not_find(tmp_path: Path) -> None:
    env = tmp_path / "environment.yml"
    env.write_text(
        "name: proj\ndependencies:\n  - zlib=1.2.11=h7b6447c_3\n  - numpy=1.18.1=py37h4f9e942_0\n"
        "  - tensorflow-addons=0.7.1\n  - pip:\n    - tqdm==4.40.0\n"
    )
    text = (
        f"conda env create -f {env}\nResolvePackageNotFound:\n"
        "  - numpy==1.18.1=py37h4f9e942_0\n  - tensorflow-addons=0.7.1\n"
    )
    pypi = next(x for x in explained(text).findings if x.cause == _PYPI)
    assert pypi.fix is not None
    # The fix's own first command: what conda reads next has neither.
    subprocess.run(pypi.fix.commands[0], shell=True, check=True)
    created = pypi.fix.commands[1].rsplit(" ", 1)[-1]
    out = Path(created).read_text()
    assert "  - numpy=1.18.1\n" in out and "  - zlib=1.2.11\n" in out
    assert "tensorflow-addons" not in out and "    - tqdm==4.40.0\n" in out
    assert "name: proj" in out and "tensorflow-addons==0.7.1" in pypi.fix.commands[-1]


def _cuda_override_after(commands: Sequence[str], path: Path) -> subprocess.CompletedProcess[str]:
    """Run the fix's override command with ``path`` as the only search path, and print what
    the environment then holds for conda (``unset`` where nothing was exported)."""
    (command,) = [c for c in commands if "CONDA_OVERRIDE_CUDA" in c]
    script = f'{command}\nprintf %s "${{CONDA_OVERRIDE_CUDA-unset}}"'
    bash = shutil.which("bash")
    assert bash is not None
    return subprocess.run(
        [bash, "-c", script],
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": f"{path}:/usr/bin:/bin"},
    )


@pytest.mark.skipif(platform.system() == "Windows", reason="a POSIX shell")
def test_the_cuda_override_reads_the_driver_and_never_exports_an_empty_value(
    tmp_path: Path,
) -> None:
    line = "   └─ __cuda >=11.8, which is missing on the system.\n"
    top = top_error(explained(line))
    assert top.fix is not None
    # No driver here (a login node): nothing is exported, and the message says what to set.
    bare = _cuda_override_after(top.fix.commands, tmp_path)
    assert bare.stdout == "unset"
    assert "GPU machines" in bare.stderr
    # A driver answers: its banner's CUDA Version is exported.
    smi = tmp_path / "nvidia-smi"
    smi.write_text(
        "#!/bin/sh\n"
        "echo '| NVIDIA-SMI 535.54.03    Driver Version: 535.54.03    CUDA Version: 12.2     |'\n"
    )
    smi.chmod(0o755)
    assert _cuda_override_after(top.fix.commands, tmp_path).stdout == "12.2"


#: conda install's PackagesNotFoundError (conda/exceptions.py): the request, then the channels.
_NOT_AVAILABLE = (
    "$ conda install {spec}\n"
    "Collecting package metadata (current_repodata.json): done\n"
    "Solving environment: failed with initial frozen solve. Retrying with flexible solve.\n\n"
    "PackagesNotFoundError: The following packages are not available from current channels:\n\n"
    "  - {spec}\n\n"
    "Current channels:\n\n"
    "  - https://repo.anaconda.com/pkgs/main/linux-64\n"
)


@pytest.mark.parametrize("spec", ["tensorflow-text", "tensorflow-addons==0.21.0"])
def test_conda_asked_for_a_companion_pypi_publishes_installs_it_with_the_environments_pip(
    spec: str,
) -> None:
    top = top_error(explained(_NOT_AVAILABLE.format(spec=spec)))
    assert top.cause == "conda-package-pypi-only"
    assert f"python -m pip install {spec}" in fix_text(top)


@pytest.mark.parametrize("spec", ["scikit-image", "tensorflow==1.7.0", "tensorflow-deps"])
def test_conda_lacking_another_package_is_not_a_pypi_companion(spec: str) -> None:
    report = explained(_NOT_AVAILABLE.format(spec=spec))
    assert all(x.cause != "conda-package-pypi-only" for x in report.findings)


#: The classic solver's words where it gives up, after a command that asks CUDA builds.
_UNSOLVED = (
    "Collecting package metadata (current_repodata.json): done\n"
    "Solving environment: failed with initial frozen solve. Retrying with flexible solve.\n"
    "Solving environment: |\n"
    "Found conflicts! Looking for incompatible packages.\n"
    "failed\n\n"
    "UnsatisfiableError: The following specifications were found to be incompatible with each "
    "other:\n\n"
    "Output in format: Requested package -> Available versions\n\n"
    "Package libgcc-ng conflicts for:\n"
    "python=3.10 -> libgcc-ng[version='>=11.2.0']\n"
)


@pytest.mark.parametrize(
    "command",
    [
        '(base) [user@login01 ~]$ conda create -n tf -c conda-forge "tensorflow=2.15=cuda*" '
        "python=3.10",
        "$ mamba install -c conda-forge pytorch cuda-version=12.1 tensorflow",
        "conda install -c anaconda tensorflow-gpu=2.4.1 cudatoolkit=11.0",
        "PS C:\\> conda create -n gpu python=3.9 cudatoolkit=11.2 cudnn=8.1",
    ],
    ids=["build-string-cuda", "cuda-version", "tensorflow-gpu", "cudatoolkit-windows-prompt"],
)
def test_cuda_builds_the_solver_gave_up_on_may_lack_the_driver(command: str) -> None:
    report = explained(command + "\n" + _UNSOLVED)
    found = [x for x in report.findings if x.cause == _VIRTUAL]
    assert len(found) == 1 and found[0].severity.value == "warning"
    fix = fix_text(found[0])
    assert "conda info" in fix and "CONDA_OVERRIDE_CUDA" in fix
    # No version of the builds is declared: the machine's own value is read.
    assert "CONDA_OVERRIDE_CUDA=12" not in fix and "CONDA_OVERRIDE_CUDA=11" not in fix
    if "C:\\" in command:
        # conda on Windows: cmd's and PowerShell's commands, not export.
        assert "$env:CONDA_OVERRIDE_CUDA" in fix and "export" not in fix


def test_a_solve_cut_before_its_unsatisfiable_error_cites_the_solver_s_conflicts_line() -> None:
    command = "conda install -c anaconda tensorflow-gpu=2.4.1 cudatoolkit=11.0"
    cut = _UNSOLVED.split("failed\n", 1)[0]
    found = [x for x in explained(command + "\n" + cut).findings if x.cause == _VIRTUAL]
    assert len(found) == 1
    assert command in found[0].detail
    assert "Found conflicts! Looking for incompatible packages." in found[0].detail


@pytest.mark.parametrize(
    "text",
    [
        # A command for CPU builds: the conflicts are the packages'.
        "conda install -c conda-forge tensorflow=2.15 python=3.12\n" + _UNSOLVED,
        # The CUDA builds solved: nothing failed.
        "conda install -c conda-forge tensorflow=2.15=cuda* cuda-version=12\n"
        "Solving environment: done\n"
        "Preparing transaction: done\nVerifying transaction: done\nExecuting transaction: done\n",
        # The solver names TensorFlow's Python as the conflict: that is the reading.
        "conda install tensorflow-gpu=1.15 cudatoolkit=10.0\n"
        "UnsatisfiableError: The following specifications were found to be incompatible with "
        "each other:\n\nOutput in format: Requested package -> Available versions\n\n"
        "Package python conflicts for:\npython=3.9\n"
        "tensorflow-gpu=1.15 -> python[version='>=3.6,<3.7.0a0|>=3.7,<3.8.0a0']\n",
    ],
    ids=["cpu-builds-unsolved", "cuda-builds-solved", "python-conflict-named"],
)
def test_no_cuda_builds_unsolved_no_driver_candidate(text: str) -> None:
    assert _VIRTUAL not in _causes(text)


@pytest.mark.parametrize(
    "text",
    [
        # An environment named gpu asks for no CUDA build; numpy 1.19's Python is the conflict.
        "$ conda create --name=gpu python=3.12 numpy=1.19\n"
        "Solving environment: failed with initial frozen solve. Retrying with flexible solve.\n"
        "Found conflicts! Looking for incompatible packages.\nfailed\n\n"
        "UnsatisfiableError: The following specifications were found to be incompatible with "
        "each other:\n\nPackage python conflicts for:\n"
        "numpy=1.19 -> python[version='>=3.6,<3.7.0a0|>=3.8,<3.9.0a0']\npython=3.12\n",
        # The CUDA install solved earlier; the failing command asks for basemap alone.
        "(base) $ conda create -n tf -c conda-forge python=3.10 cudatoolkit=11.2 cudnn=8.1.0\n"
        "Solving environment: done\nExecuting transaction: done\n"
        "(tf) $ conda install -c conda-forge basemap=1.2.0\n"
        "Found conflicts! Looking for incompatible packages.\nfailed\n\n"
        "UnsatisfiableError: The following specifications were found to be incompatible with "
        "the existing python installation in your environment:\n\nSpecifications:\n\n"
        "  - basemap=1.2.0 -> python[version='>=2.7,<2.8.0a0|>=3.6,<3.7.0a0']\n\n"
        "Your python: python=3.10\n",
        # The solver names __glibc: its reading leads, no __cuda candidate beside it.
        "$ conda install -c conda-forge tensorflow=2.15=cuda* cuda-version=12\n"
        "Found conflicts! Looking for incompatible packages.\nfailed\n\n"
        "UnsatisfiableError: The following specifications were found to be incompatible with "
        "your system:\n\n  - feature:/linux-64::__glibc==2.17=0\n"
        "  - tensorflow=2.15 -> libgcc-ng[version='>=12'] -> __glibc[version='>=2.28']\n\n"
        "Your installed version is: 2.17\n",
    ],
    ids=["env-named-gpu", "earlier-cuda-install-solved", "glibc-named"],
)
def test_no_cuda_driver_warning_where_the_failing_command_or_words_say_otherwise(
    text: str,
) -> None:
    found = explained(text).findings
    assert not any("may not see a CUDA driver" in x.summary for x in found)


def test_the_solvers_own_cuda_words_lead_and_no_second_candidate_follows() -> None:
    text = (
        "conda install tensorflow-gpu=2.4.1 cudatoolkit=11.0\n"
        "UnsatisfiableError: The following specifications were found to be incompatible with "
        "your system:\n\n"
        "  - feature:/linux-64::__cuda==10.2=0\n"
        "  - tensorflow-gpu=2.4.1 -> tensorflow==2.4.1=gpu_py38h8a7d6ce_0 -> "
        "__cuda[version='>=11.0']\n\n"
        "Your installed version is: 10.2\n"
    )
    report = explained(text)
    assert [x.summary for x in report.findings if "(__cuda)" in x.summary] == []
