"""Causes in a Jupyter kernel: another environment than the terminal's, variables that differ,
a TensorFlow imported before the installed one changed."""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping, Sequence
from pathlib import PurePath
from typing import Final, Optional

from tfdoctor.causes.base import Cause, CauseId, define
from tfdoctor.facts import NotebookFacts
from tfdoctor.findings import Fix
from tfdoctor.shellword import shell_word

#: The ids of this area's causes, as checks, explain and scan name them.
KERNEL_ENV_MISMATCH: Final = CauseId("kernel-env-mismatch")
KERNEL_VARIABLES_DIFFER: Final = CauseId("kernel-variables-differ")
KERNEL_RESTART_NEEDED: Final = CauseId("kernel-restart-needed")
KERNEL_PACKAGE_MISSING: Final = CauseId("kernel-package-missing")
KERNEL_INTERPRETER_MISSING: Final = CauseId("kernel-interpreter-missing")

IPYKERNEL_ENVS = "https://ipython.readthedocs.io/en/stable/install/kernel_install.html"
KERNELSPECS = "https://jupyter-client.readthedocs.io/en/stable/kernels.html#kernel-specs"

#: Causes in the kernel a notebook runs on.
CAUSES: Mapping[str, Cause] = dict(
    (
        define(
            KERNEL_ENV_MISMATCH,
            "The notebook's kernel runs another environment than the terminal",
            "A kernel runs the interpreter its kernelspec names, whatever environment the "
            "terminal that started Jupyter had active; `pip install` typed in that terminal "
            "installs into the terminal's environment, which the kernel never imports from. "
            "TensorFlow then looks missing, or another version, or without its CUDA wheels.",
            IPYKERNEL_ENVS,
            KERNELSPECS,
        ),
        define(
            KERNEL_VARIABLES_DIFFER,
            "The kernel's library path or visible GPUs differ from the terminal's",
            "The kernel inherits the environment of the process that started it, plus the "
            "kernelspec's `env`; `LD_LIBRARY_PATH` and `CUDA_VISIBLE_DEVICES` set in a shell "
            "after Jupyter started, in the kernelspec, or with `%env`/`os.environ` in the "
            "notebook, differ from the terminal's. The dynamic loader reads `LD_LIBRARY_PATH` "
            "once, when the process starts, and CUDA reads `CUDA_VISIBLE_DEVICES` when it "
            "initialises: a change made inside a running kernel does not take effect. So "
            "with `PATH`: a program a magic or `subprocess` runs by name (`%tensorboard` runs "
            "`tensorboard`) is looked for on the PATH of the process that started Jupyter, "
            "which holds the environment's bin directory only where that environment was "
            "active.",
            KERNELSPECS,
            "https://man7.org/linux/man-pages/man8/ld.so.8.html",
        ),
        define(
            KERNEL_RESTART_NEEDED,
            "The kernel still runs the TensorFlow it imported before another was installed",
            "Python imports a module once per process: after `pip install` changes TensorFlow, "
            "a kernel that had imported it keeps running the old one, with the new one's files "
            "underneath, until it restarts.",
            "https://docs.python.org/3/reference/import.html#the-module-cache",
        ),
        define(
            KERNEL_PACKAGE_MISSING,
            "The interpreter chosen for the kernel lacks the package that runs a kernel",
            "Jupyter starts a kernel as `PYTHON -m ipykernel_launcher` with the interpreter the "
            "kernelspec names; VS Code and Spyder start the interpreter chosen in their "
            "settings the same way (Spyder with its own spyder-kernels, of the release it "
            "asks for). An interpreter without that package cannot start a kernel: the "
            "kernel dies as it starts, and no cell runs. It is usually another environment "
            "than the one set up for the notebook.",
            IPYKERNEL_ENVS,
            KERNELSPECS,
        ),
        define(
            KERNEL_INTERPRETER_MISSING,
            "The kernelspec names an interpreter that is gone",
            "A kernelspec (kernel.json) keeps the absolute path of the interpreter it was "
            "registered from; removing, renaming or recreating that environment elsewhere "
            "leaves the kernel listed in Jupyter's menu, and choosing it fails to start any "
            "process.",
            KERNELSPECS,
            IPYKERNEL_ENVS,
        ),
    )
)

_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def env_name(prefix: str) -> str:
    """A kernel name for the environment at ``prefix``: its folder's name, made safe and in
    lower case, as ``jupyter kernelspec install`` stores and lists it (jupyter_client's
    ``KernelSpecManager.install_kernel_spec`` lowers the name it is given)."""
    return _display(prefix).lower()


def register_commands(python: str, name: str, display: str = "") -> tuple[str, ...]:
    """Install ipykernel into ``python`` (quoted for its shell) and register it as the kernel
    ``name`` (``display``: its menu name, quoted, where given): one command a line, run in
    turn, since Windows PowerShell 5 has no ``&&`` (about_Pipeline_Chain_Operators: 7.0 on)."""
    shown = f" --display-name {display}" if display else ""
    return (
        f"{python} -m pip install ipykernel",
        f"{python} -m ipykernel install --user --name {name}{shown}",
    )


#: The system's own interpreter (Debian's and Ubuntu's /usr/bin/python3, python3.11), which
#: PEP 668 marks externally managed (an EXTERNALLY-MANAGED file beside its standard library,
#: Debian 12 and Ubuntu 23.04 on): pip refuses to install into it
#: (https://peps.python.org/pep-0668/; pip's error: "externally-managed-environment").
_SYSTEM_PYTHON = re.compile(r"^/usr/bin/python3(?:\.\d{1,2})?$")

#: The distribution's packages of what starts a kernel (Debian's and Ubuntu's names:
#: https://packages.debian.org/bookworm/python3-ipykernel, python3-spyder-kernels).
_DISTRO_PACKAGE = {"ipykernel": "python3-ipykernel", "spyder-kernels": "python3-spyder-kernels"}


def _display(prefix: str) -> str:
    """The environment's folder name, made safe for a kernel name."""
    name = _NAME.sub("-", PurePath(prefix).name).strip("-.")
    return name or "terminal-env"


def register_kernel_fix(nb: NotebookFacts) -> Fix:
    """Register the terminal's environment as a kernel and choose it, or start Jupyter from it."""
    python = nb.terminal_python or "python"
    name = env_name(nb.terminal_prefix or "")
    display = f"Python ({_display(nb.terminal_prefix or '')})"
    q = shlex.quote(python)
    return Fix(
        f"Make the environment the terminal installs into ({nb.terminal_prefix or python}) a "
        f"kernel, then choose the kernel {name!r} ({display!r} in Kernel > Change kernel); "
        f"or start Jupyter from that environment ({q} -m jupyter lab) so that its default "
        "kernel is that interpreter.",
        register_commands(q, name, shlex.quote(display)),
    )


def kernel_python_fix(pythons: Sequence[str], prefixes: Sequence[str]) -> Fix:
    """The notebook imports from another interpreter than the one the package was installed
    into (``pythons`` the log shows, ``prefixes`` their environments): install into the
    kernel's own interpreter from the notebook, or register the environment that has it as a
    kernel and choose it."""
    commands: list[str] = []
    for python, prefix in zip(pythons, prefixes):
        if not _ENV_FOLDER.search(prefix.replace("\\", "/")):
            continue  # a base or system interpreter: no environment to register
        q = shell_word(python, windows=True)
        name = env_name(prefix.replace("\\", "/"))
        commands.extend(register_commands(q, name))
    commands.append("%pip install tensorflow  # in a notebook cell: the kernel's own Python")
    return Fix(
        "The log shows " + " and ".join(pythons) + ": the notebook's kernel is not the "
        "interpreter TensorFlow was installed into. Print `import sys; sys.executable` in the "
        "notebook to see the kernel's; install into it from a cell (%pip installs into the "
        "kernel's interpreter), or register the environment that has TensorFlow as a kernel "
        "and choose it in Kernel > Change kernel.",
        tuple(commands),
    )


def kernel_install_fix(dist: str) -> Fix:
    """pip installed ``dist`` for another interpreter than the notebook's kernel: install it
    into the kernel's own from a cell, or make pip's environment a kernel and choose it."""
    return Fix(
        f"pip installed {dist} into another Python than the notebook's kernel. Print "
        "`sys.executable` in the notebook to see the kernel's interpreter; install into it from "
        "a cell (%pip installs into the kernel's own interpreter, where !pip runs whichever pip "
        "the shell finds first), or register the environment pip installed into as a kernel "
        "with ipykernel (run from that environment) and choose it in Kernel > Change kernel.",
        (
            "import sys; print(sys.executable)  # in a notebook cell",
            f"%pip install {dist}  # in a notebook cell",
            # Run from the environment pip installed into.
            *register_commands("python", "my-env"),
        ),
    )


def reticulate_env_fix(env: str, conda: bool, searched: Sequence[str]) -> Fix:
    """R's session uses another Python than the environment ``env`` TensorFlow was installed
    into (a conda environment where ``conda``): bind the session to ``env`` before anything
    loads Python, with nothing (RStudio's interpreter option, RETICULATE_PYTHON) overriding
    it."""
    use = "use_condaenv" if conda else "use_virtualenv"
    return Fix(
        f"reticulate searched {', '.join(searched)}, not the environment {env!r} TensorFlow was "
        "installed into: the R session was bound to another Python before (RStudio's Tools > "
        "Global Options > Python interpreter, or RETICULATE_PYTHON, overrides what the script "
        f"asks for, and the first Python a session loads stays). Clear that setting, restart "
        f"R, and bind the session to {env!r} before loading tensorflow or keras.",
        (
            'Sys.unsetenv("RETICULATE_PYTHON")',
            f'reticulate::{use}("{env}", required = TRUE)',
            "reticulate::py_config()",
        ),
    )


def reticulate_managed_fix(searched: Sequence[str]) -> Fix:
    """R's session is bound to a Python reticulate provisioned in its own cache (no Python
    was named for it), which lacks TensorFlow: name the Python that has TensorFlow before
    anything loads Python, or declare TensorFlow for reticulate's managed environment."""
    return Fix(
        f"reticulate searched only {', '.join(searched)}, a Python it provisioned itself in "
        "its cache because no Python was named for the session, and TensorFlow is not "
        "there. Restart R and, before loading tensorflow or keras, name the "
        "Python that has TensorFlow (RETICULATE_PYTHON, or reticulate::use_virtualenv() / "
        "use_condaenv() / use_python() with required = TRUE), or declare TensorFlow for "
        "reticulate's managed environment with reticulate::py_require().",
        (
            'Sys.setenv(RETICULATE_PYTHON = "/path/to/python-with-tensorflow")',
            'reticulate::py_require("tensorflow")',
            "reticulate::py_config()",
        ),
    )


#: An environment's folder rather than a base or system Python: conda's envs/NAME, or a
#: virtual environment's usual names.
_ENV_FOLDER = re.compile(r"/envs/[^/]+$|/(?:\.?venv|\.?env|virtualenvs/[^/]+)$|/\.?venv[^/]*$")


def kernel_variables_fix(nb: NotebookFacts, names: tuple[str, ...]) -> Fix:
    """Set the variables where the kernel starts: the kernelspec's ``env``, or the server's."""
    where = (
        f"the kernelspec of {nb.kernel_name!r} (its kernel.json 'env')"
        if nb.kernel_name
        else "the kernelspec's kernel.json 'env'"
    )
    return Fix(
        f"Set {', '.join(names)} before the kernel starts, to the values the code needs: "
        f"export them in the terminal before starting Jupyter, or in {where}; then restart "
        "the kernel. Setting them inside a running kernel does not reach the loader.",
        ("jupyter kernelspec list",),
    )


def kernel_path_fix(program: str) -> Fix:
    """A program run by name from a kernel is not on the kernel's PATH: where it is (next to
    the kernel's interpreter, or not installed there at all), and the PATH the kernel starts
    with."""
    return Fix(
        f"The kernel runs `{program}` by name and its PATH does not lead to it: the PATH was "
        "inherited from the process that started Jupyter, and the environment whose bin "
        f"directory holds `{program}` was not active there. Start Jupyter from that "
        "environment once activated (`conda activate ENV` or `source ENV/bin/activate`, then "
        "`jupyter notebook`), or prepend the environment's bin directory (where the kernel's "
        "`sys.executable` is) to PATH in the kernelspec's kernel.json 'env'; then restart the "
        f"kernel. Where `{program}` is not in that directory either, install its package in "
        "the kernel's environment (`%pip install ...`).",
        (
            "import os, shutil, sys; print(sys.executable, shutil.which("
            f"{program!r}), os.environ['PATH'])  # in the notebook",
            "jupyter kernelspec list",
        ),
    )


#: Spyder's words for the spyder-kernels release it accepts (">= 2.5.0 and < 2.6.0").
_SPYDER_RANGE = re.compile(r"(>=|<=|<|>|==)\s*([\w.]+)")


def kernel_package_fix(dist: str, interpreter: Optional[str], wanted: Optional[str]) -> Fix:
    """Install ``dist`` (ipykernel, spyder-kernels) into the interpreter that starts the kernel
    (``interpreter``, where the log names it), of the releases the editor asks for
    (``wanted``: Spyder's words, ">= 2.5.0 and < 2.6.0"), or choose another interpreter."""
    spec = ",".join(op + version for op, version in _SPYDER_RANGE.findall(wanted or ""))
    # Double quotes: Spyder runs mostly on Windows, whose cmd.exe keeps single quotes and
    # reads the specifier's < and > as redirections; every shell takes "NAME>=X,<Y".
    requirement = f'"{dist}{spec}"' if spec else dist
    python = shell_word(interpreter, windows=True) if interpreter else "python"
    where = (
        f"the interpreter that starts the kernel ({interpreter})"
        if interpreter
        else "the interpreter the kernel runs (with its environment active, or by its path)"
    )
    choose = (
        "or set Spyder's Preferences > Python interpreter back to the default one"
        if dist == "spyder-kernels"
        else "or choose a kernel whose interpreter has it (Kernel > Change kernel; VS Code's "
        "Select Kernel / Python: Select Interpreter)"
    )
    if interpreter is not None and _SYSTEM_PYTHON.match(interpreter):
        return _system_kernel_fix(dist, interpreter, spec, requirement, choose)
    return Fix(
        f"Install {dist + (' ' + spec if spec else '')} into {where}, then restart the kernel; "
        f"{choose}.",
        (f"{python} -m pip install {requirement}",),
    )


def _system_kernel_fix(
    dist: str, interpreter: str, spec: str, requirement: str, choose: str
) -> Fix:
    """``dist`` for the system's own ``interpreter``, where pip is refused (PEP 668): the
    distribution's package (where no release range is asked for, which its one release may
    not meet), or a virtual environment of that Python with it, chosen as the interpreter."""
    venv = "~/.venvs/kernel"
    distro = (
        ()
        if spec
        else (f"sudo apt install {_DISTRO_PACKAGE[dist]}  # Debian, Ubuntu: the system's own",)
    )
    register = register_commands(f"{venv}/bin/python", "kernel")[1:] if dist == "ipykernel" else ()
    return Fix(
        f"{interpreter} is the system's own Python, into which pip refuses to install on "
        "Debian 12, Ubuntu 23.04 and later (externally-managed-environment, PEP 668). "
        + (f"Install the distribution's {_DISTRO_PACKAGE[dist]}, or make" if not spec else "Make")
        + f" a virtual environment, install {dist + (' ' + spec if spec else '')} and the "
        "notebook's packages into it, and choose its Python for the kernel; "
        f"then restart the kernel; {choose}.",
        (
            *distro,
            # Debian's and Ubuntu's venv module comes in python3-venv (ensurepip's wheels).
            f"{interpreter} -m venv {venv}  # after: sudo apt install python3-venv",
            f"{venv}/bin/python -m pip install {requirement}",
            *register,
        ),
    )


def kernelspec_gone_fix(interpreter: str) -> Fix:
    """Remove the kernelspec that names ``interpreter`` (gone) and register the environment's
    Python again, or choose another kernel."""
    return Fix(
        f"The kernel's kernelspec names {interpreter}, which is not there (its environment "
        "was removed, renamed or moved). Find that kernel in `jupyter kernelspec list` (its "
        "kernel.json holds the path), remove it, and register the environment's Python again "
        "with ipykernel, run from that environment; or choose another kernel.",
        (
            "jupyter kernelspec list",
            "jupyter kernelspec remove KERNEL_NAME",
            # Run from the environment's Python.
            *register_commands("python", "KERNEL_NAME"),
        ),
    )


#: Where the two usual notebooks restart their kernel, for a log that does not say which ran.
NOTEBOOK_RESTART_MENUS = "Runtime > Restart session in Colab, Kernel > Restart Kernel in Jupyter"


def restart_fix(restart_menu: Optional[str], imported: str = "TensorFlow") -> Fix:
    """Restart the kernel so that it imports the installed release of ``imported``."""
    where = restart_menu or "Kernel > Restart Kernel"
    return Fix(f"Restart the kernel ({where}), then import {imported} again.", ())


#: A TensorFlow release a fix's pip command pins (``"tensorflow==1.15.5"``, ``tensorflow==2.1.*``):
#: of the ``tensorflow`` distribution itself, which install_tensorflow installs, not another
#: one's (``intel-tensorflow==2.4.0``, ``tensorflow-gpu==2.4.0``).
_TF_PIN = re.compile(r"(?<![\w.-])tensorflow==(?P<release>\d+(?:\.\d+){1,2})")


def r_interface_fix(fix: Fix) -> Fix:
    """``fix`` for code run from R (the tensorflow and keras R packages, which reach Python
    through reticulate): the TensorFlow that raised is the one in the Python reticulate
    loaded, which ``reticulate::py_config()`` shows, and the R package's
    ``install_tensorflow(version = ...)`` installs a release there (a full or a major.minor
    release: https://tensorflow.rstudio.com/reference/tensorflow/install_tensorflow), not a
    pip of another Python. The release is the one ``fix``'s own pip command pins (in its
    commands, else its text), where it pins one; R's commands come first, the Python ones
    after."""
    pinned = _TF_PIN.search(" ".join(fix.commands)) or _TF_PIN.search(fix.text)
    install = (
        (f'tensorflow::install_tensorflow(version = "{pinned.group("release")}")',)
        if pinned is not None
        else ()
    )
    return Fix(
        f"{fix.text} From R (the R interfaces reach Python through reticulate): "
        "reticulate::py_config() shows the Python and TensorFlow the session loaded; install "
        "the release named here into it with tensorflow::install_tensorflow(version = ...) and "
        "restart R.",
        ("reticulate::py_config()", *install, *fix.commands),
    )
