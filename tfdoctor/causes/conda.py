"""Causes in a conda environment: its CUDA toolkit beside TensorFlow's build."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final, Optional

from tfdoctor.causes.base import Cause, CauseId, define
from tfdoctor.causes.common import TF_PIP_GUIDE, install_fix
from tfdoctor.findings import Fix
from tfdoctor.machine import Machine
from tfdoctor.matrix import TFLine, version_key

#: The ids of this area's causes, as checks, explain and scan name them.
CONDA_CUDA_MISMATCH: Final = CauseId("conda-cuda-mismatch")

#: Causes in the conda environment's CUDA.
CAUSES: Mapping[str, Cause] = dict(
    (
        define(
            CONDA_CUDA_MISMATCH,
            "conda's CUDA is not the CUDA TensorFlow was built for",
            "The conda environment's CUDA packages are of another major version than "
            "TensorFlow's build; their libraries come first once the environment is active "
            "and do not serve it.",
            TF_PIP_GUIDE,
        ),
    )
)


def conda_libraries_fix(m: Machine, line: Optional[TFLine], replace: bool = False) -> Fix:
    """conda's CUDA and cuDNN of the build's versions (``replace``: other versions are there)."""
    cuda = m.build_cuda or (line.cuda if line else None)
    cudnn = m.build_cudnn or (line.cudnn if line else None)
    conda = m.facts.conda
    have = {p.name for p in conda.packages} if conda is not None else set()
    if not replace and ({"cudatoolkit", "cudnn"} <= have or {"cuda-runtime", "cudnn"} <= have):
        # Installed, yet not loaded: the environment's lib directory is off the path.
        return Fix(
            "conda's CUDA and cuDNN are installed in this environment but not on the loader's "
            "path: activate the environment, or add its lib directory (for good: in "
            "$CONDA_PREFIX/etc/conda/activate.d/env_vars.sh).",
            (m.ld_path_with(("$CONDA_PREFIX/lib",)),),
        )
    if cuda is not None and version_key(cuda) >= (12,):
        pkgs = f"cuda-version={cuda} cuda-runtime cudnn" + (f"={cudnn}" if cudnn else "")
    else:
        pkgs = f"cudatoolkit={cuda} cudnn={cudnn}" if cuda and cudnn else "cudatoolkit cudnn"
    return Fix(
        f"Install CUDA {cuda} and cuDNN {cudnn or '(of its build)'} into this conda environment "
        "(conda puts them on TensorFlow's path when the environment is active).",
        (f"conda install -c conda-forge {pkgs}",),
    )


def conda_toolkit_line(m: Machine) -> Optional[TFLine]:
    """The newest line that fits this machine and was built for the CUDA toolkit conda holds,
    when that is not the installed build's CUDA."""
    from tfdoctor.compat import evaluate  # noqa: PLC0415 - avoids a cycle at import

    conda = m.facts.conda
    if conda is None or m.matrix is None or m.build_cuda is None:
        return None
    toolkit = conda.package("cudatoolkit") or conda.package("cuda-version")
    if toolkit is None:
        return None
    have = version_key(toolkit.version)[:2]
    if have == version_key(m.build_cuda)[:2]:
        return None
    for line in m.matrix.lines:
        if (
            line.cuda
            and version_key(line.cuda)[:2] == have
            and evaluate(m.matrix, line, m.target).fits
        ):
            return line
    return None


def conda_cuda_fix(m: Machine, toolkit: str) -> Fix:
    """conda's CUDA of the build's version, or none beside the and-cuda wheels."""
    spec = m.and_cuda_spec()
    built_for_conda = conda_toolkit_line(m)
    if m.wheels_unfound() and built_for_conda is not None:
        return install_fix(
            m,
            f"Install TensorFlow {built_for_conda.latest_patch}, the newest built for conda's "
            f"CUDA {built_for_conda.cuda} ({m.tf.version if m.tf else 'this release'} does not "
            "find the CUDA wheels of its extra).",
            f"tensorflow=={built_for_conda.latest_patch}",
        )
    if spec is not None and m.cuda_install_method == "and-cuda":
        return Fix(
            f"Remove conda's {toolkit} and install the CUDA libraries this TensorFlow pins as "
            "pip wheels (its and-cuda extra).",
            (f"conda remove -y {toolkit}", *m.pip_install(spec)),
        )
    return conda_libraries_fix(m, m.line, replace=True)


def conda_python_fix(
    dist: str, version: str, python: str, pythons: Sequence[str], whose: str
) -> Fix:
    """conda has no build of ``dist`` ``version`` (of any release where ``version`` is empty)
    for the environment's Python ``python``: a new environment with the newest Python 3 of
    ``pythons`` (what ``whose`` says they are), or another release (pip's wheels where no
    release has a conda build for this Python)."""
    release = f"{dist} {version}".rstrip()
    newest = next((p for p in reversed(pythons) if p.startswith("3.")), None)
    listed = f"; {whose} Python {', '.join(pythons)}" if pythons else ""
    other = (
        f"or install a release built for Python {python} instead"
        if version
        else "or install TensorFlow with pip inside the environment, whose wheels may cover "
        "this Python (`tfdoctor matrix` lists each release's Pythons)"
    )
    if newest is None:
        return Fix(
            f"conda has no build of {release} for Python {python}{listed}: create an "
            f"environment with a Python it was built for (`conda search` lists its builds), "
            f"{other}.",
            (f"conda search {dist}" + (f"={version}" if version else ""),),
        )
    env = f"tf{version.replace('.', '')}"
    spec = f"{dist}={version}" if version else dist
    return Fix(
        f"conda has no build of {release} for Python {python}{listed}. Create an environment "
        f"with Python {newest} for it, {other}.",
        (f"conda create -n {env} python={newest} {spec}", f"conda activate {env}"),
    )


#: The script conda runs as an environment is activated (conda's activate.d hook), and the
#: lines TensorFlow's pip install guide for 2.9-2.14 wrote into it so that TensorFlow finds the
#: CUDA libraries conda installed in the environment's lib directory, which the loader does not
#: search (tensorflow/docs site/en/install/pip.md; tensorflow/docs#2214 for 2.12).
CONDA_ACTIVATE_SCRIPT = "$CONDA_PREFIX/etc/conda/activate.d/env_vars.sh"
CONDA_LIB_ON_PATH: tuple[str, ...] = (
    "mkdir -p $CONDA_PREFIX/etc/conda/activate.d",
    "echo 'export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$CONDA_PREFIX/lib/' >> " + CONDA_ACTIVATE_SCRIPT,
    "source " + CONDA_ACTIVATE_SCRIPT,
)
TF_PIP_GUIDE_CONDA = "https://github.com/tensorflow/docs/pull/2214"


def conda_env_install_fix(m: Machine, major: Optional[str] = None) -> Fix:
    """conda's CUDA and cuDNN into the active environment, of the build's release where known
    (else of the CUDA major the library TensorFlow asked for names)."""
    if m.build_cuda is not None or m.line is not None:
        return conda_libraries_fix(m, m.line)
    major = m.build_cuda_major or major
    spec = f"cudatoolkit={major} cudnn" if major else "cudatoolkit cudnn"
    what = f"the CUDA {major}" if major else "the CUDA"
    return Fix(
        f"Install {what} toolkit and cuDNN into this conda environment (`tfdoctor matrix` "
        "names the releases this TensorFlow was built with).",
        (f"conda install -c conda-forge {spec}",),
    )


def channel_build_fix(m: Machine) -> Fix:
    """The channels have no build of the requested TensorFlow for this platform and Python."""
    return Fix(
        "The conda channels searched have no build of that TensorFlow for this platform and "
        "Python (conda-forge builds only some releases per platform; the defaults channel's "
        "are old): list the builds there are, and pick one of them, add the channel that has "
        "one, or create the environment with a Python the release has builds for; or install "
        "TensorFlow with pip inside the conda environment (PyPI's wheels cover more "
        "releases).",
        (
            "conda search -c conda-forge tensorflow",
            "python -m pip install tensorflow",
        ),
    )
