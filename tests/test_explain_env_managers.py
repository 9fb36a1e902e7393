"""Environment managers and the kernels notebooks run: an interpreter chosen for a kernel
without the package that starts one (ipykernel, Spyder's spyder-kernels), pyenv selecting a
version that is not installed, conda's and mamba's activate without the shell's hook, and the
solvers' words (libsolv's, resolvo's, pixi's) for a system version they do not see."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.findings import Severity

_KERNEL = "kernel-package-missing"
_PYENV = "pyenv-version-unavailable"
_SHELL = "conda-shell-not-initialised"
_VIRTUAL = "conda-virtual-package-mismatch"


def _commands(text: str) -> tuple[str, ...]:
    fix = top_error(explained(text)).fix
    assert fix is not None
    return fix.commands


def test_runpy_names_the_kernel_interpreter_without_ipykernel() -> None:
    text = (
        "[I 2025-02-03 08:10:11.001 ServerApp] Kernel started: "
        "3f2a0c1e-aaaa-4bbb-8ccc-000000000001\n"
        "/home/u/envs/tf/bin/python: No module named ipykernel_launcher\n"
        "[I 2025-02-03 08:10:14.010 ServerApp] KernelRestarter: restarting kernel (1/5), "
        "new random ports\n"
    )
    top = top_error(explained(text))
    assert top.cause == _KERNEL
    assert _commands(text) == ("/home/u/envs/tf/bin/python -m pip install ipykernel",)


@pytest.mark.parametrize("python", ["/usr/bin/python3", "/usr/bin/python3.11"])
def test_the_systems_own_python_gets_its_distribution_package_not_pip(python: str) -> None:
    # PEP 668: Debian 12's and Ubuntu 23.04's system Python refuses pip's installs.
    text = f"{python}: No module named ipykernel_launcher\n"
    commands = _commands(text)
    assert f"{python} -m pip install ipykernel" not in commands
    assert commands[0].startswith("sudo apt install python3-ipykernel")
    assert any(c.startswith(f"{python} -m venv ") for c in commands)


def test_a_python_of_its_own_under_usr_local_keeps_pip() -> None:
    text = "/usr/local/bin/python3: No module named ipykernel_launcher\n"
    assert _commands(text) == ("/usr/local/bin/python3 -m pip install ipykernel",)


def test_a_windows_kernel_interpreter_is_quoted_for_its_shell() -> None:
    text = "C:\\Users\\u\\miniconda3\\envs\\tf\\python.exe: No module named ipykernel_launcher\n"
    assert _commands(text) == (
        '"C:\\Users\\u\\miniconda3\\envs\\tf\\python.exe" -m pip install ipykernel',
    )


def test_vscode_asks_for_ipykernel_in_its_chosen_interpreter() -> None:
    text = (
        "Running cells with 'tf (Python 3.10.13)' requires the ipykernel package.\n"
        "Run the following command to install 'ipykernel' into the Python environment.\n"
        "Command: 'conda install -n tf ipykernel --update-deps --force-reinstall'\n"
    )
    top = top_error(explained(text))
    assert top.cause == _KERNEL and "Select Interpreter" in fix_text(top)
    assert _commands(text) == ("python -m pip install ipykernel",)


@pytest.mark.parametrize(
    "line",
    [
        pytest.param(
            "Your Python environment or installation doesn't have the spyder\u2011kernels module "
            "or the right version of it installed (>= 2.5.0 and < 2.6.0). Without this module is "
            "not possible for Spyder to create a console for you.",
            id="spyder5",
        ),
        pytest.param(
            "doesn't have the right version of spyder-kernels installed (2.4.4 instead of >= "
            "2.5.0 and < 2.6.0). Without this module is not possible for Spyder to create a "
            "console for you.",
            id="spyder6",
        ),
    ],
)
def test_spyder_asks_for_the_spyder_kernels_release_it_accepts(line: str) -> None:
    text = line + "\n"
    top = top_error(explained(text))
    assert top.cause == _KERNEL and "Preferences > Python interpreter" in fix_text(top)
    # Double quotes, which cmd.exe and PowerShell read as POSIX shells do (Spyder's users are
    # mostly on Windows, where single quotes leave < and > to redirect).
    assert _commands(text) == ('python -m pip install "spyder-kernels>=2.5.0,<2.6.0"',)


def test_pyenv_version_not_installed_from_a_version_file() -> None:
    text = (
        "$ python train.py\n"
        "pyenv: version `3.10.4' is not installed (set by /srv/app/.python-version)\n"
    )
    top = top_error(explained(text))
    assert top.cause == _PYENV and "/srv/app/.python-version" in fix_text(top)
    assert _commands(text) == ("pyenv install 3.10.4", "pyenv versions")


def test_pyenv_virtualenv_name_is_not_installed_as_a_release() -> None:
    text = (
        "pyenv: version `tf-env' is not installed (set by PYENV_VERSION environment variable)\n"
        "pyenv: python3: command not found\n"
    )
    top = top_error(explained(text))
    assert top.cause == _PYENV
    assert "unset PYENV_VERSION" in fix_text(top)
    assert not any(c.startswith("pyenv install") for c in _commands(text))


def test_pyenv_shim_without_the_command_lists_where_it_is() -> None:
    text = (
        "$ pip install tensorflow\n"
        "pyenv: pip: command not found\n\n"
        "The `pip' command exists in these Python versions:\n  3.11.4\n"
    )
    top = top_error(explained(text))
    assert top.cause == _PYENV
    assert _commands(text) == ("pyenv whence pip", "pyenv version")


def test_conda_activate_without_conda_init() -> None:
    text = (
        "$ conda activate tf\n\n"
        "CommandNotFoundError: Your shell has not been properly configured to use "
        "'conda activate'.\nTo initialize your shell, run\n\n    $ conda init <SHELL_NAME>\n"
    )
    top = top_error(explained(text))
    assert top.cause == _SHELL and "conda run -n" in fix_text(top)
    assert "conda init bash" in _commands(text)


def test_micromamba_activate_without_its_hook() -> None:
    text = (
        "critical libmamba Shell not initialized\n\n"
        "'micromamba' is running as a subprocess and can't modify the parent shell.\n"
        "Thus you must initialize your shell before using activate and deactivate.\n"
    )
    top = top_error(explained(text))
    assert top.cause == _SHELL
    assert _commands(text)[0] == 'eval "$(micromamba shell hook --shell bash)"'


@pytest.mark.parametrize(
    ("prompt", "init"),
    [
        # macOS's terminal opens zsh, which never reads the file `conda init bash` writes.
        pytest.param("(base) u@MacBook-Pro ~ % ", "conda init zsh", id="macos-zsh"),
        pytest.param("(base) PS C:\\Users\\u> ", "conda init powershell", id="windows"),
        pytest.param("(base) u@box:~$ ", "conda init bash", id="linux-bash"),
    ],
)
def test_conda_init_names_the_shell_the_system_opens(prompt: str, init: str) -> None:
    text = (
        f"{prompt}conda activate tf\n\n"
        "CommandNotFoundError: Your shell has not been properly configured to use "
        "'conda activate'.\n"
    )
    assert _commands(text)[0] == init


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "LibMambaUnsatisfiableError: Encountered problems while solving:\n"
            "  - package tensorflow-2.16.1-cuda120py312h1ca1f4f_0 requires __cuda, but none of "
            "the providers can be installed\n",
            id="libsolv-no-provider",
        ),
        pytest.param(
            "  \u00d7 failed to solve the conda requirements of 'default' 'linux-64'\n"
            "  ╰─▶ Cannot solve the request because of: tensorflow * cuda* cannot be installed "
            "because there are no viable options:\n"
            "      └─ tensorflow 2.17.0 would require\n"
            "         └─ __cuda *, for which no candidates were found.\n",
            id="resolvo-no-candidates",
        ),
        pytest.param(
            "Error:   \u00d7 The current platform does not satisfy the minimal virtual package "
            "requirements\n  ╰─▶ The platform you are running on should at least have the "
            "virtual package __cuda on version 12.0, build_string: 0\n",
            id="pixi-missing",
        ),
    ],
)
def test_solvers_words_for_a_virtual_package_they_do_not_see(text: str) -> None:
    top = top_error(explained(text))
    assert top.cause == _VIRTUAL and "CONDA_OVERRIDE_CUDA" in fix_text(top)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "%pip install -q tensorflow-datasets\n"
            "Note: you may need to restart the kernel to use updated packages.\n",
            id="pip-magic-note",
        ),
        pytest.param(
            "       virtual packages : __archspec=1=x86_64\n"
            "                          __cuda=12.2=0\n"
            "                          __glibc=2.35=0\n",
            id="conda-info",
        ),
        pytest.param(
            "$ CONDA_OVERRIDE_CUDA=12.0 mamba install -c conda-forge tensorflow\n"
            "  + tensorflow         2.15.0  cuda120py311h2d3c4e0_3  conda-forge/linux-64     41kB\n"
            "Executing transaction: done\n",
            id="override-install",
        ),
        pytest.param(
            "(base) $ conda activate tf\n(tf) $ python -V\nPython 3.11.6\n", id="activate"
        ),
    ],
)
def test_environment_managers_working_stay_below_warning(text: str) -> None:
    assert all(f.severity.rank < Severity.WARNING.rank for f in explained(text).findings)


_UNDETECTED = "conda-cuda-undetected"

_INFO_WSL_OLD = (
    "     active environment : base\n"
    "          conda version : 4.12.0\n"
    "       virtual packages : __linux=5.15.90.1=0\n"
    "                          __glibc=2.35=0\n"
    "                          __unix=0=0\n"
    "                          __archspec=1=x86_64\n"
    "             user-agent : conda/4.12.0 requests/2.27.1 CPython/3.9.12 "
    "Linux/5.15.90.1-microsoft-standard-WSL2 ubuntu/22.04 glibc/2.35\n"
)


def test_conda_before_wsl_detection_lists_no_cuda_under_wsl() -> None:
    found = [f for f in explained(_INFO_WSL_OLD).findings if f.cause == _UNDETECTED]
    assert found and found[0].severity == Severity.WARNING
    # No driver in the log: the finding does not claim one.
    assert "if there is one" in found[0].summary
    fix = found[0].fix
    assert fix is not None and 'conda install -n base "conda>=4.14.0"' in fix.commands
    assert "CONDA_OVERRIDE_CUDA" in fix_text(found[0])
    # Under WSL nvidia-smi may answer nothing: an empty override would tell conda there is no
    # CUDA at all, so the reading is exported only where it holds a value (the one command
    # conda-virtual-package-mismatch gives too).
    (export,) = [c for c in fix.commands if "CONDA_OVERRIDE_CUDA" in c]
    assert 'if [ -n "$cuda" ]; then export CONDA_OVERRIDE_CUDA="$cuda"' in export


def test_no_cuda_listed_beside_a_driver_is_an_error() -> None:
    text = (
        _INFO_WSL_OLD.replace("4.12.0", "23.7.4").replace("-microsoft-standard-WSL2", "")
        + "| NVIDIA-SMI 535.54.03              Driver Version: 535.54.03    CUDA Version: 12.2  |\n"
    )
    top = top_error(explained(text))
    assert top.cause == _UNDETECTED and top.fix is not None
    assert not any(c.startswith("conda install") for c in top.fix.commands)


#: conda info on Windows (conda/cli/main_info.py's fields; __win is its virtual package).
_INFO_WINDOWS = (
    "     active environment : base\n"
    "          conda version : 23.7.4\n"
    "               platform : win-64\n"
    "       virtual packages : __archspec=1=x86_64\n"
    "                          __win=0=0\n"
    "| NVIDIA-SMI 537.13                 Driver Version: 537.13       CUDA Version: 12.2     |\n"
)


def test_no_cuda_listed_on_windows_is_declared_with_cmds_and_powershells_commands() -> None:
    top = top_error(explained(_INFO_WINDOWS))
    assert top.cause == _UNDETECTED and top.fix is not None
    assert "set CONDA_OVERRIDE_CUDA=X.Y" in top.fix.commands
    assert '$env:CONDA_OVERRIDE_CUDA = "X.Y"' in top.fix.commands
    assert not any("export " in c or "sed " in c for c in top.fix.commands)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(_INFO_WSL_OLD.replace("4.12.0", "4.14.0"), id="conda-that-searches-wsl"),
        pytest.param(
            _INFO_WSL_OLD.replace("-microsoft-standard-WSL2", "-generic"), id="no-wsl-no-driver"
        ),
        pytest.param(_INFO_WSL_OLD.replace("__unix=0=0", "__cuda=12.2=0"), id="cuda-listed"),
    ],
)
def test_conda_info_without_a_driver_to_see_is_left_alone(text: str) -> None:
    assert _UNDETECTED not in {f.cause for f in explained(text).findings}


_VENV = "venv-base-python-missing"


def test_windows_venv_launcher_without_its_base_python() -> None:
    text = (
        "PS C:\\Users\\u\\proj> .venv\\Scripts\\python -m pip install tensorflow\n"
        "No Python at '\"C:\\Users\\u\\AppData\\Local\\Programs\\Python\\Python310\\python.exe'\n"
    )
    top = top_error(explained(text))
    assert top.cause == _VENV
    assert "Python 3.10" in fix_text(top) and "Python310\\python.exe" in fix_text(top)
    # Not `python`, which may be the broken environment's own: Windows' py launcher.
    assert _commands(text)[0].startswith("py -3 -m venv --clear")


@pytest.mark.parametrize(
    "line",
    [
        pytest.param(
            "bash: /home/u/proj/.venv/bin/pip: /home/u/proj-old/.venv/bin/python3: bad "
            "interpreter: No such file or directory",
            id="bash",
        ),
        pytest.param(
            "zsh: /home/u/proj/.venv/bin/pip: bad interpreter: /home/u/proj-old/.venv/bin/"
            "python3: no such file or directory",
            id="zsh",
        ),
    ],
)
def test_a_moved_venv_script_names_its_old_python(line: str) -> None:
    top = top_error(explained(line + "\n"))
    assert top.cause == _VENV and "/home/u/proj-old/.venv/bin/python3" in fix_text(top)
    assert _commands(line + "\n")[0].startswith("python3 -m venv --clear VENV_DIR")


def test_a_shell_script_with_another_bad_interpreter_is_not_a_venv() -> None:
    text = "bash: ./run.sh: /bin/bash^M: bad interpreter: No such file or directory\n"
    assert _VENV not in {f.cause for f in explained(text).findings}


def test_tensorflow_missing_under_python3_is_installed_with_python3s_pip() -> None:
    text = (
        "$ pip --version\n"
        "pip 20.0.2 from /usr/lib/python3/dist-packages/pip (python 3.8)\n"
        "$ python3 -c 'import tensorflow'\n"
        "Traceback (most recent call last):\n"
        '  File "<string>", line 1, in <module>\n'
        "ModuleNotFoundError: No module named 'tensorflow'\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-not-installed"
    assert "python3 -m pip install tensorflow" in _commands(text)


_COMMAND = "python-command-missing"


@pytest.mark.parametrize(
    ("text", "command"),
    [
        pytest.param(
            "$ python -m pip install tensorflow\n"
            "Command 'python' not found, did you mean:\n"
            "  command 'python3' from deb python3\n"
            "  command 'python' from deb python-is-python3\n",
            "sudo apt install python-is-python3",
            id="python",
        ),
        pytest.param(
            "$ pip install tensorflow\n"
            "Command 'pip' not found, but can be installed with:\n\nsudo apt install python3-pip\n",
            "sudo apt install python3-pip",
            id="pip",
        ),
        pytest.param(
            "$ python3.12 train.py\nCommand 'python3.12' not found, did you mean:\n"
            "  command 'python3.10' from deb python3.10\n",
            "ls /usr/bin/python3*",
            id="versioned",
        ),
        pytest.param(
            "PS C:\\Users\\u> python -m pip install tensorflow\n"
            "Python was not found; run without arguments to install from the Microsoft Store, "
            "or disable this shortcut from Settings > Manage App Execution Aliases.\n",
            "py -0p",
            id="windows-store-alias",
        ),
    ],
)
def test_the_shell_finds_no_python_of_the_name_typed(text: str, command: str) -> None:
    top = top_error(explained(text))
    assert top.cause == _COMMAND and command in _commands(text)


def test_another_command_not_found_is_not_pythons() -> None:
    text = (
        "Command 'nvcc' not found, but can be installed with:\n\n"
        "sudo apt install nvidia-cuda-toolkit\n"
    )
    assert _COMMAND not in {f.cause for f in explained(text).findings}


def test_a_conda_environment_name_this_conda_does_not_know() -> None:
    text = (
        "$ conda activate tf-gpu\n\n"
        "EnvironmentNameNotFound: Could not find conda environment: tf-gpu\n"
        "You can list all discoverable environments with `conda info --envs`.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "conda-env-not-found"
    assert _commands(text) == ("conda env list", "conda create -n tf-gpu python")


_SERVER_LAUNCH = (
    "[E 2025-03-04 09:15:02.101 ServerApp] Failed to run command:\n"
    "    ['/home/u/miniconda3/envs/old/bin/python', '-m', 'ipykernel_launcher', '-f', "
    "'/home/u/.local/share/jupyter/runtime/kernel-5e0c.json']\n"
    "        PATH='/home/u/miniconda3/bin:/usr/bin'\n"
    "    Traceback (most recent call last):\n"
    '      File "/home/u/miniconda3/lib/python3.11/site-packages/jupyter_client/launcher.py", '
    "line 175, in launch_kernel\n"
    "        proc = Popen(cmd, **kwargs)\n"
    "    FileNotFoundError: [Errno 2] No such file or directory: "
    "'/home/u/miniconda3/envs/old/bin/python'\n"
)


def test_a_kernelspec_naming_a_removed_environment() -> None:
    top = top_error(explained(_SERVER_LAUNCH))
    assert top.cause == "kernel-interpreter-missing"
    assert "/home/u/miniconda3/envs/old/bin/python" in fix_text(top)
    assert "jupyter kernelspec list" in _commands(_SERVER_LAUNCH)
    # ipykernel's install and the kernel's registration, one command a line (Windows
    # PowerShell 5 has no &&), as every kernel fix gives them.
    assert "python -m pip install ipykernel" in _commands(_SERVER_LAUNCH)
    assert not any("&&" in c for c in _commands(_SERVER_LAUNCH))


def test_a_missing_python_outside_a_kernel_launch_is_not_a_kernelspec() -> None:
    text = _SERVER_LAUNCH.replace("ipykernel_launcher", "my_tool")
    assert "kernel-interpreter-missing" not in {f.cause for f in explained(text).findings}


@pytest.mark.parametrize(
    ("text", "command"),
    [
        pytest.param(
            "$ pixi install\n"
            "  \u00d7 the project is not configured for your current platform\n"
            "   \u00b7                             \u2570\u2500\u2500 add 'linux-64' here\n"
            "  help: The project needs to be configured to support your platform (linux-64).\n",
            "pixi project platform add linux-64",
            id="pixi-project",
        ),
        # The label alone (a paste cut above it): the pixi that printed these words (0.12 or
        # older) knows `pixi project`, never `pixi workspace` (0.43.0's name).
        pytest.param(
            "   \u00b7                  \u2570\u2500\u2500 add 'osx-arm64' here\n",
            "pixi project platform add osx-arm64",
            id="pixi-label-alone",
        ),
    ],
)
def test_pixi_on_a_platform_its_manifest_does_not_list(text: str, command: str) -> None:
    top = top_error(explained(text))
    assert top.cause == "pixi-platform-not-configured" and command in _commands(text)
