"""Checks on a conda environment: TensorFlow from pip and conda at once, conda's CUDA."""

from __future__ import annotations

from collections.abc import Iterator

from tfdoctor import causes
from tfdoctor.checks._context import CheckContext, fix
from tfdoctor.facts import normalize_name
from tfdoctor.findings import Finding, Severity
from tfdoctor.machine import CONDA_TENSORFLOW
from tfdoctor.matrix import version_key

#: conda packages that bring the CUDA runtime: the CUDA 11 era's single package, and the
#: CUDA 12 era's metapackage that pins the version (conda-forge's cuda-version).
_CONDA_CUDA = ("cudatoolkit", "cuda-version", "cuda-cudart", "cuda-runtime")


def check_conda_mix(ctx: CheckContext) -> Iterator[Finding]:
    """One TensorFlow in a conda environment, and conda's CUDA of the build's major."""
    facts, m = ctx.facts, ctx.machine
    conda = facts.conda
    if conda is None:
        return
    from_conda = m.conda_tensorflow
    pip_tf = m.tf
    if from_conda is not None and pip_tf is not None and pip_tf.version != from_conda.version:
        # conda's package writes site-packages/tensorflow too; a pip install over it (or
        # under it) leaves files of two releases in one directory.
        yield causes.finding(
            "packages.conda",
            Severity.ERROR,
            causes.software.TF_MULTIPLE_DISTRIBUTIONS,
            f"TensorFlow {from_conda.version} from conda ({from_conda.channel}) and "
            f"{pip_tf.name} {pip_tf.version} from pip share this environment",
            "conda's tensorflow and pip's write the same `tensorflow/` directory: the import "
            "mixes the two releases' files.",
            fix(
                "Keep one: remove conda's TensorFlow, then restore pip's files (TensorFlow's "
                "own guide installs it with pip, also inside conda).",
                "conda remove -y --force "
                + " ".join(n for n in CONDA_TENSORFLOW if conda.package(n) is not None),
                *m.pip(f'install --force-reinstall --no-deps "{pip_tf.name}=={pip_tf.version}"'),
            ),
        )
        return
    build = m.build_cuda
    toolkit = next((conda.package(n) for n in _CONDA_CUDA if conda.package(n) is not None), None)
    if build is None or toolkit is None or from_conda is not None:
        return
    if version_key(toolkit.version)[:1] == version_key(build)[:1]:
        yield Finding(
            "packages.conda",
            Severity.OK,
            f"conda's {toolkit.name} {toolkit.version} matches TensorFlow's CUDA {build} build",
        )
        return
    tf_name = normalize_name(pip_tf.name) if pip_tf is not None else "tensorflow"
    yield causes.finding(
        "packages.conda",
        Severity.WARNING,
        causes.conda.CONDA_CUDA_MISMATCH,
        f"conda's {toolkit.name} {toolkit.version} is not the CUDA {build} that {tf_name} "
        f"{pip_tf.version if pip_tf else ''} was built for".replace("  ", " "),
        "",
        causes.conda.conda_cuda_fix(m, toolkit.name),
    )
