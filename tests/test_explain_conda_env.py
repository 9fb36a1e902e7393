"""A CUDA library the loader did not find, where the log cannot tell whether it is installed off
the loader's path or not at all: an active conda environment beside TensorFlow 2's loader line
puts the environment's lib directory first (TensorFlow's own guide installed CUDA there, off the
loader's path until an activate.d script adds it); a library named as not found in words only
puts a copy off the path first. The logs are written for the tests."""

from __future__ import annotations

import pytest

from tests.explaining import SIGNATURES, explained, readings
from tfdoctor.evidence.conda import conda_channels, read_conda_env, read_conda_info
from tfdoctor.explain import scan
from tfdoctor.explain.reader import split_text
from tfdoctor.findings import Finding, Severity

OFF_PATH, MISSING = "cuda-libs-off-path", "cuda-libs-missing"
DLOPEN = (
    "2022-08-01 10:00:00.000000: W tensorflow/stream_executor/platform/default/dso_loader.cc:64] "
    "Could not load dynamic library '{lib}'; dlerror: {lib}: cannot open shared object file: "
    "No such file or directory{path}"
)


def _dlopen(lib: str = "libcudart.so.11.0", path: str = "") -> str:
    return DLOPEN.format(lib=lib, path=f"; LD_LIBRARY_PATH: {path}" if path else "")


def _problem(text: str) -> Finding:
    (found,) = readings(explained(text))
    return found


def test_a_venv_entered_inside_conda_is_no_conda_environment() -> None:
    log = (
        "(base) user@box:~$ python3 -m venv tfenv && source tfenv/bin/activate\n"
        "(tfenv) (base) user@box:~$ python train.py\n"
        f"{_dlopen()}"
    )
    found = _problem(log)
    assert found.cause == MISSING
    assert found.fix is not None and "CONDA_PREFIX" not in " ".join(found.fix.commands)


@pytest.mark.parametrize(
    "shown",
    [
        # A prompt's name, where the text names conda.
        pytest.param(
            "Installed with conda.\n(tf) user@box:~/project$ python train.py", id="prompt"
        ),
        pytest.param("[user@node01 ~]$ conda activate dl", id="activate"),
        pytest.param("$ mamba create -n pose python=3.9 cudatoolkit=11.2", id="mamba-create"),
        pytest.param(
            '  File "/home/user/miniconda3/envs/tf/lib/python3.9/site-packages/keras/'
            'engine/training.py", line 1184, in fit',
            id="env-path",
        ),
    ],
)
def test_a_conda_environment_beside_the_loader_line_ranks_its_lib_off_the_path_first(
    shown: str,
) -> None:
    found = _problem(f"{shown}\n{_dlopen()}\n{_dlopen('libcublas.so.11')}")
    assert found.cause == OFF_PATH
    assert found.severity is Severity.ERROR
    assert found.fix is not None
    text = found.fix.text
    assert text.index("$CONDA_PREFIX/lib") < text.index("2. the environment holds none")
    assert "activate.d" in text and "conda environment" in text
    assert found.fix.commands[:2] == (
        "mkdir -p $CONDA_PREFIX/etc/conda/activate.d",
        "echo 'export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$CONDA_PREFIX/lib/' >> "
        "$CONDA_PREFIX/etc/conda/activate.d/env_vars.sh",
    )
    # The second candidate installs conda's CUDA of the major the file names.
    assert "conda install -c conda-forge cudatoolkit=11 cudnn" in found.fix.commands


@pytest.mark.parametrize(
    ("log", "why"),
    [
        # No environment shown: the general fix, not an invented one.
        pytest.param(f"user@box:~/project$ python train.py\n{_dlopen()}", "no-env", id="no-env"),
        # A venv's prompt looks like conda's: its usual names are not read as conda.
        pytest.param(f"(venv) user@box:~/p$ python train.py\n{_dlopen()}", "venv", id="venv"),
        pytest.param(f"(.venv) user@box:~/p$ python x.py\n{_dlopen()}", "venv", id="dot-venv"),
        # The loader's printed path already holds the environment's lib: the library is not
        # in it.
        pytest.param(
            "(tf) user@box:~$ python x.py\n"
            + _dlopen(path="/home/user/miniconda3/envs/tf/lib:/usr/local/cuda/lib64"),
            "on-path",
            id="env-lib-on-path",
        ),
        # CUDA 12's runtime: only releases whose own pip wheels bring CUDA ask for it.
        pytest.param(
            f"(tf) user@box:~$ python x.py\n{_dlopen('libcudart.so.12')}", "wheels", id="cuda12"
        ),
    ],
)
def test_without_an_environment_to_blame_the_library_is_missing(log: str, why: str) -> None:
    found = _problem(log)
    assert found.cause != OFF_PATH, why
    assert found.fix is not None and "activate.d" not in found.fix.text


def test_a_windows_dll_in_a_conda_prompt_is_no_loader_path() -> None:
    log = (
        "(tf) C:\\Users\\user>python train.py\n"
        "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic "
        "library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found"
    )
    found = _problem(log)
    assert found.cause == MISSING
    assert found.fix is not None and "activate.d" not in found.fix.text


@pytest.mark.parametrize(
    "words",
    [
        "After installing CUDA 11.2 the import says libcudart.so.11.0 not found",
        "Libcublas.so.11 is not found although the toolkit is installed",
        "\tlibcudnn.so.8 => not found",
    ],
)
def test_a_library_named_not_found_in_words_is_a_ranked_warning(words: str) -> None:
    # Whether a copy is installed the words do not say: the missing cause, its candidates
    # ranked.
    found = _problem(words)
    assert found.cause == MISSING
    assert found.severity is Severity.WARNING
    assert found.fix is not None
    assert "1. a copy is installed where the loader does not look" in found.fix.text
    assert "2. none is installed" in found.fix.text
    assert "LD_LIBRARY_PATH" in found.fix.text
    assert any(c.startswith("find / ") for c in found.fix.commands)


def test_words_in_a_conda_environment_rank_its_lib_first() -> None:
    found = _problem(
        "I made the env with mamba\n(sleap) user@lab:~$ sleap-label\n"
        "it says libcudart.so.11.0 not found"
    )
    assert found.cause == OFF_PATH
    assert found.severity is Severity.WARNING
    assert found.fix is not None and "$CONDA_PREFIX/lib" in found.fix.text


@pytest.mark.parametrize(
    "text",
    [
        # TensorFlow's own Windows line says "not found" after its loader's words: that line's
        # signature reads it, once.
        "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic "
        "library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found",
        # Not a CUDA toolkit library: TensorRT's, the driver's.
        "libnvinfer.so.7 not found",
        "libcuda.so.1 not found",
        # Found, not missing; a file name without a version.
        "libcudart.so.11.0 found in /usr/local/cuda/lib64",
        "libcudart.so not found in the docs",
    ],
)
def test_words_near_the_family_are_not_a_library_named_not_found(text: str) -> None:
    evidence = scan([split_text(text)], SIGNATURES)
    assert "cuda-library-named-not-found" not in evidence.hits


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        pytest.param("(base) user@host:~$ python -V", "(base) user@host:~$ python -V", id="base"),
        pytest.param(
            "from the conda docs\n(pose) [user@gpu01 work]$ python run.py\n",
            "(pose) [user@gpu01 work]$ python run.py",
            id="bracketed",
        ),
        pytest.param(
            "C:\\Users\\user\\anaconda3\\envs\\tf\\python.exe x.py",
            "C:\\Users\\user\\anaconda3\\envs\\tf\\python.exe x.py",
            id="windows-path",
        ),
        pytest.param("conda activate tf2\n", "conda activate tf2", id="activate"),
    ],
)
def test_the_conda_environment_a_log_shows(text: str, shown: str) -> None:
    found = read_conda_env(text)
    assert found is not None and found[1] == shown


def test_a_prompts_name_alone_is_no_conda_environment() -> None:
    # `python -m venv myproj` prompts "(myproj)" too: without conda named, no environment.
    assert read_conda_env("(myproj) user@host:~$ python train.py\n") is None
    assert read_conda_env("(myproj) user@host:~$ conda list\n") is not None


@pytest.mark.parametrize(
    "text",
    [
        "(venv) user@host:~$ python -V",
        "(myproject-AbC12xYz) user@host:~$ python -V",
        "(note) this is a remark",
        "I never ran conda activate here",
        "/usr/lib/python3/dist-packages/envs.py",
    ],
)
def test_what_is_no_conda_environment(text: str) -> None:
    assert read_conda_env(text) is None


# conda list's rows: name, version, build, channel (pip's wheels: build pypi_0, channel pypi).
_CONDA_TF = (
    "$ conda list | grep tensorflow\n"
    "tensorflow                2.10.0          gpu_py39h9bca12c_0\n"
    "tensorflow-base           2.10.0          gpu_py39h6559e04_0\n"
)


def test_tensorflow_from_conda_and_from_pip_in_one_environment_is_two_installs() -> None:
    text = _CONDA_TF + "tensorflow                2.13.0                   pypi_0    pypi\n"
    found = [x for x in explained(text).findings if x.cause == "tf-multiple-distributions"]
    assert found and found[0].severity is Severity.ERROR
    assert found[0].fix is not None
    commands = found[0].fix.commands
    assert commands[0] == "conda remove -y --force tensorflow tensorflow-base"
    assert any("uninstall -y tensorflow" in c for c in commands[1:])
    assert any('"tensorflow==2.13.0"' in c for c in commands)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(_CONDA_TF, id="conda-only"),
        pytest.param(
            "tensorflow                2.13.0                   pypi_0    pypi\n"
            "tensorflow-estimator      2.13.0                   pypi_0    pypi\n",
            id="pip-only",
        ),
    ],
)
def test_tensorflow_from_one_installer_is_one_install(text: str) -> None:
    assert "tf-multiple-distributions" not in {x.cause for x in explained(text).findings}


def test_conda_info_is_read_for_its_release_virtual_packages_and_wsl() -> None:
    text = (
        "     active environment : tf\n"
        "          conda version : 4.12.0\n"
        "       virtual packages : __linux=5.10.102.1=0\n"
        "                          __glibc=2.31=0\n"
        "                          __unix=0=0\n"
        "               platform : linux-64\n"
        "             user-agent : conda/4.12.0 requests/2.27.1 CPython/3.9.5 "
        "Linux/5.10.102.1-microsoft-standard-WSL2 ubuntu/20.04.3 glibc/2.31\n"
    )
    info = read_conda_info(text)
    assert info is not None
    assert (info.version, info.virtual, info.wsl, info.index) == (
        "4.12.0",
        ("__linux", "__glibc", "__unix"),
        True,
        2,
    )
    assert read_conda_info("conda version : 4.12.0\nplatform : linux-64\n") is None


def test_conda_lists_channel_column_is_read_under_its_header_only() -> None:
    rows = (
        "h5py                      3.9.0           py310he06866b_0    conda-forge\n"
        "hdf5                      1.12.1               h2b7332f_3\n"
        "keras                     2.12.0                   pypi_0    pypi\n"
    )
    header = "# packages in environment at /opt/conda/envs/tf:\n#\n"
    names = frozenset({"h5py", "hdf5", "keras"})
    # An empty column is the default channels; pip's rows are no channel's.
    assert conda_channels(header + rows, names) == {"h5py": "conda-forge", "hdf5": ""}
    assert conda_channels(rows, names) == {}
