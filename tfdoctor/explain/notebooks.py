"""Builders for notebooks: kernels and the Pythons they run."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Optional

from tfdoctor import causes
from tfdoctor.evidence.packages import read_pip_installed, read_pip_shown
from tfdoctor.evidence.traceback import Traceback, interpreter_prefix
from tfdoctor.explain.common import cite, group, hits_by
from tfdoctor.explain.scanning import Evidence, Hits
from tfdoctor.facts import normalize_name
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.modules import distribution_of


def _kernel_package(hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """The kernel's interpreter lacks the package that starts a kernel: Spyder's own
    spyder-kernels where its words show it, else ipykernel; the interpreter and the releases
    asked for where the lines name them."""
    spyder = any(h.signature.id == "spyder-kernels-missing" for h in hits)
    return causes.notebook.KERNEL_PACKAGE_MISSING, causes.notebook.kernel_package_fix(
        "spyder-kernels" if spyder else "ipykernel",
        group(hits, "interpreter"),
        group(hits, "spec"),
    )


def _settle_kernel_install(evidence: Evidence, findings: dict[str, Finding]) -> None:
    """The kernel's finding (:func:`_kernel_without_install`) in place of "not installed":
    pip put the module where the kernel does not look, and that fix would send the next
    install to the same wrong interpreter."""
    kernel = _kernel_without_install(evidence)
    if kernel is None:
        return
    for key in ("explain.package-not-installed", "explain.tf-not-installed"):
        findings.pop(key, None)
    findings.setdefault(kernel.id, kernel)


def _kernel_without_install(evidence: Evidence) -> Optional[Finding]:
    """A notebook's kernel (IPython's traceback) that cannot import a module whose
    distribution pip says it installed, or found installed, in the log: pip ran for another
    interpreter than the kernel's (a terminal's environment, ``!pip`` of the shell's PATH).
    Not where ``%pip`` installed it (the kernel's own interpreter), nor into the user's site
    directory, which a kernel started before it existed does not search (a restart's
    matter)."""
    text = evidence.first_text
    if "%pip install" in text:
        return None
    installed = read_pip_installed(text) if "pip" in text or "Successfully" in text else []
    # pip show reports what is installed whenever it ran: before the failure or after it, a
    # distribution it shows that the kernel cannot import is another interpreter's (unless an
    # install after the failure put it there: below).
    shown = read_pip_shown(text)
    if not installed and not shown:
        return None
    for tb in evidence.tracebacks:
        missing = tb.missing_module if tb.ipython else None
        if missing is None or not missing.lone_top_level:
            continue
        module = missing.name
        dist = normalize_name(distribution_of(module) or module)
        said = [text.find(w) for w in ("Successfully installed", "Requirement already satisfied")]
        pip_at = min((x for x in said if x >= 0), default=-1)
        failed_at = text.rfind(tb.message.strip())
        # An install after the failure was its remedy, not another interpreter's, and a pip
        # show after that install reports the remedy.
        remedied = text.find("Successfully installed", failed_at) >= 0
        if (dist not in shown or remedied) and (
            dist not in installed or not 0 <= pip_at < failed_at
        ):
            continue
        return _env_mismatch(
            f"pip installed {dist}, yet the notebook's kernel finds no {module}: it runs "
            "another Python",
            f"{tb.where}: {tb.type}: {tb.message}\npip reports {dist} installed in the "
            "environment it ran for; the kernel's interpreter does not see it, so pip and the "
            "kernel are two Pythons.",
            causes.notebook.kernel_install_fix(dist),
        )
    return None


def _kernel_python(evidence: Evidence, by_cause: dict[str, list[Hits]]) -> Optional[Finding]:
    """TensorFlow missing in a notebook while the log shows interpreters of two environments:
    the kernel imports from another Python than the one TensorFlow went into. The finding
    replaces "not installed" (whose fix would install into the wrong one again)."""
    hits = by_cause.get(causes.software.TF_NOT_INSTALLED)
    if not hits or not (evidence.jupyter or any(tb.ipython for tb in evidence.tracebacks)):
        return None
    prefixes: list[str] = []
    pythons: list[str] = []
    for python in evidence.interpreters:
        prefix = interpreter_prefix(python)
        if prefix not in prefixes:
            prefixes.append(prefix)
            pythons.append(python)
    if len(prefixes) < 2:
        return None
    del by_cause[causes.software.TF_NOT_INSTALLED]
    return _env_mismatch(
        "The notebook runs another Python than the one TensorFlow was installed into",
        cite(hits) + "\nInterpreters the log shows: " + ", ".join(pythons) + ".",
        causes.notebook.kernel_python_fix(pythons, prefixes),
    )


def _env_mismatch(summary: str, detail: str, fix: Fix) -> Finding:
    """The error that the code ran in another Python than the one the package went into."""
    return causes.finding(
        f"explain.{causes.notebook.KERNEL_ENV_MISMATCH}",
        Severity.ERROR,
        causes.notebook.KERNEL_ENV_MISMATCH,
        summary,
        detail,
        fix,
    )


#: An R call that names the environment TensorFlow goes into or is used from (the R
#: interfaces' install_tensorflow(envname =), reticulate's use_* and *_create).
_R_ENV_CALL = re.compile(
    r"\b(?P<call>install_tensorflow|install_keras|use_virtualenv|use_condaenv|virtualenv_create"
    r"|conda_create)\(\s*(?:envname\s*=\s*)?[\"'](?P<env>[\w.-]{1,80})[\"']"
)
#: The R interfaces' list of the Pythons reticulate searched, one per line below this line
#: (tf_config_error_message in https://github.com/rstudio/tensorflow/blob/main/R/package.R).
_R_SEARCHED = re.compile(
    r"Python environments searched for 'tensorflow' package:\n"
    r"(?P<list>(?:[ \t]+\S[^\n]{0,400}(?:\n|$)){1,20})"
)
#: A Python reticulate provisioned itself: with no Python named, reticulate (py_require, from
#: 1.41.0: https://rstudio.github.io/reticulate/news/index.html) runs the uv it downloaded with
#: UV_PYTHON_INSTALL_DIR and UV_CACHE_DIR below its own cache folder,
#: tools::R_user_dir("reticulate", "cache") (~/.cache/R/reticulate on Linux,
#: ~/Library/Caches/org.R-project.R/R/reticulate on macOS, %LOCALAPPDATA%/R/cache/R/reticulate
#: on Windows): uv_get_or_create_env and uv_exec in
#: https://github.com/rstudio/reticulate/blob/main/R/py_require.R, reticulate_cache_dir in
#: R/utils.R. A uv of the user's own keeps its own cache, which this does not read.
_RETICULATE_MANAGED = re.compile(r"[\\/]R[\\/]reticulate[\\/]uv[\\/](?:python|cache)[\\/]")


def _reticulate_python(evidence: Evidence, by_cause: dict[str, list[Hits]]) -> Optional[Finding]:
    """The R interfaces found no TensorFlow, and the Pythons reticulate searched are none of
    the environment the log's R code installed TensorFlow into or asked to use, or are all
    the Pythons reticulate provisioned itself: the session is bound to another Python. The
    finding replaces "not installed" (whose fix would install into the wrong one again)."""
    missing = list(by_cause.get(causes.software.TF_NOT_INSTALLED, ()))
    text = evidence.first_text
    # The list is the R interfaces' own words, printed under their message or alone above
    # the Python exception reticulate relays.
    searched_at = _R_SEARCHED.search(text) if missing else None
    if searched_at is None or _tensorflow_there(evidence):
        return None
    searched = [x.strip() for x in searched_at.group("list").splitlines() if x.strip()]
    calls = list(_R_ENV_CALL.finditer(text))
    hits = hits_by(by_cause, causes.software.TF_NOT_INSTALLED, "tf-not-installed-r")
    if not calls:
        return _reticulate_managed(missing, searched, by_cause)
    if not hits:
        return None
    env = calls[-1].group("env")
    folder = re.compile(rf"(?:^|[\\/]){re.escape(env)}(?:[\\/]|$)")
    if any(folder.search(python) for python in searched):
        return None  # reticulate did search it: TensorFlow is missing there, not elsewhere
    del by_cause[causes.software.TF_NOT_INSTALLED]
    conda = any(c.group("call") in ("use_condaenv", "conda_create") for c in calls)
    return _env_mismatch(
        "R uses another Python than the environment TensorFlow was installed into",
        cite(hits)
        + f"\nThe R code names the environment {env!r}; reticulate searched "
        + ", ".join(searched)
        + ".",
        causes.notebook.reticulate_env_fix(env, conda, searched),
    )


#: A frame in TensorFlow's own package: the Python that ran has TensorFlow.
_TF_FRAME = re.compile(r"[\\/]tensorflow[\\/]")


def _tensorflow_there(evidence: Evidence) -> bool:
    """The Python exception the R interfaces relay is not TensorFlow missing: they print
    "Valid installation of TensorFlow not found" and the Pythons searched above whatever
    ``import("tensorflow")`` raised (tf_config_error_message in
    https://github.com/rstudio/tensorflow/blob/main/R/package.R), so an exception from
    TensorFlow's own code, or any other than ``No module named 'tensorflow'``, shows a Python
    that has TensorFlow and fails to import it."""
    for tb in evidence.tracebacks:
        missing = tb.missing_module
        if missing is None or missing.name != "tensorflow":
            return True
        if any(_TF_FRAME.search(frame.path) for frame in tb.frames):
            return True
    return False


def _reticulate_managed(
    hits: list[Hits], searched: list[str], by_cause: dict[str, list[Hits]]
) -> Optional[Finding]:
    """Every Python reticulate searched is one it provisioned itself (no Python was named):
    TensorFlow is missing there, wherever else it was installed."""
    if not searched or not all(_RETICULATE_MANAGED.search(python) for python in searched):
        return None
    del by_cause[causes.software.TF_NOT_INSTALLED]
    return _env_mismatch(
        "R uses a Python reticulate provisioned itself, not one with TensorFlow",
        cite(hits) + "\nreticulate searched only its own Pythons: " + ", ".join(searched) + ".",
        causes.notebook.reticulate_managed_fix(searched),
    )


#: The refusal of a program run by name (Python's FileNotFoundError from ``subprocess`` or
#: ``os.exec*``; a spawn that names the program twice, as its file and its argument 0).
_PROGRAM_NOT_FOUND = re.compile(
    r"^\[Errno 2\] No such file or directory: '(?P<program>[A-Za-z][\w+-]{0,60})'"
    r"(?P<twice>: '(?P=program)')?$"
)
#: What runs a program from a kernel: a line magic (``%tensorboard``), the shell escape's
#: ``system``, ``subprocess``.
_RUNS_PROGRAM = ("run_line_magic", "subprocess", "Popen", "system(", "os.exec", "check_output")
#: Programs whose absence is the GPU stack's matter, not the kernel's PATH (the driver's
#: nvidia-smi, CUDA's compilers).
_GPU_TOOLS = re.compile(r"^(?:nvidia-\w+|nvcc|ptxas|nvlink|fatbinary)$")


def program_off_kernel_path(tracebacks: Sequence[Traceback]) -> Optional[Finding]:
    """A notebook's kernel that ran a program by name (a line magic such as ``%tensorboard``,
    ``subprocess``) and got Python's FileNotFoundError for it: the kernel's PATH, inherited
    from the process that started Jupyter, does not lead to the environment's bin directory.
    Not for a file name (a name with a dot), nor for the GPU stack's own tools."""
    for tb in reversed(tracebacks):
        if tb.type != "FileNotFoundError" or not tb.ipython:
            continue
        found = _PROGRAM_NOT_FOUND.match(tb.message.strip())
        if found is None or _GPU_TOOLS.match(found["program"]):
            continue
        ran = " ".join((tb.statement, tb.code, *(f.path + " " + f.code for f in tb.frames)))
        if found["twice"] is None and not any(word in ran for word in _RUNS_PROGRAM):
            continue
        program = found["program"]
        return causes.finding(
            f"explain.{causes.notebook.KERNEL_VARIABLES_DIFFER}",
            Severity.ERROR,
            causes.notebook.KERNEL_VARIABLES_DIFFER,
            f"The notebook's kernel cannot find the program {program!r} on its PATH",
            f"{tb.where}: {tb.type}: {tb.message.strip()}\nThe kernel ran {program!r} by "
            "name; no directory of the PATH it inherited holds it.",
            causes.notebook.kernel_path_fix(program),
        )
    return None
