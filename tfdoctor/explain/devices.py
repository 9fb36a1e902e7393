"""A log where TensorFlow lists no GPU: the candidates for why, ranked by what the log shows.

The answer (``[]``, ``Num GPUs Available: 0``, a device list of CPUs) is the same whatever the
reason, so the reasons are ranked by the evidence around it: the operating system the paths
and prompt imply, the TensorFlow release, the distribution, ``is_built_with_cuda()``'s answer.
Where another finding already names why the GPU is not used (a library that did not load, a
driver), that finding is the explanation and nothing is added.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Optional

from tfdoctor import causes
from tfdoctor.causes.base import CONTRADICTED_BY
from tfdoctor.evidence.devices import (
    DeviceListing,
    built_with_cuda,
    gpus_listed,
    visible_hides_gpus,
)
from tfdoctor.findings import Finding, Severity
from tfdoctor.machine import Machine

#: The causes that say TensorFlow cannot use the GPU: a finding with one already explains an
#: empty GPU list (the relation the observation "TensorFlow lists a GPU" refutes, and a driver
#: too old for the build's CUDA, which a listing does not refute but which stops the GPU's
#: device from being created). A GPU below the build's compute capability too: gpu_device.cc
#: leaves it out of the devices it lists ("Ignoring visible gpu device ... The minimum
#: required Cuda capability is X", GetValidDeviceIds), so the list is empty on a machine with
#: that GPU alone.
#: https://github.com/tensorflow/tensorflow/blob/v2.4.0/tensorflow/core/common_runtime/gpu/gpu_device.cc
_EXPLAINS_NO_GPU = frozenset(CONTRADICTED_BY["tf-lists-gpu"]) | {
    causes.gpu.DRIVER_TOO_OLD,
    causes.gpu.GPU_ARCH_UNSUPPORTED,
}


#: The answer of the GPU check in Colab's GPU notebook, raised where no GPU device is named.
_GUIDE_CHECK = "GPU device not found"


def unlisted_gpu_findings(
    listings: Sequence[tuple[str, DeviceListing]],
    found: Iterable[Finding],
    m: Machine,
    gpu_shown: bool,
    tf_dist: Optional[str],
    prompt: Optional[str] = None,
    metal_shown: bool = False,
    notebook_cell: bool = False,
    gpu_build_shown: bool = False,
    visible: Optional[str] = None,
    cpu_image: Optional[str] = None,
    reached: Optional[tuple[str, str]] = None,
) -> list[Finding]:
    """The findings for a log where TensorFlow lists no GPU: the reading, then, where the log
    does not decide it, each other candidate as a warning of its own cause with its own fix,
    in order; none where a GPU is listed, nothing answers about GPUs, or another finding
    explains it. ``gpu_shown``: the log shows a GPU exists
    (nvidia-smi's table, a compute capability); ``prompt``: a Unix shell's prompt in it;
    ``metal_shown``: the log names tensorflow-metal; ``notebook_cell``: a traceback shows an
    IPython cell (``<ipython-input-``, ipykernel's cell files); ``gpu_build_shown``: the log
    shows the TensorFlow installed is a GPU build (conda's build string), which rules out the
    CPU build as a candidate; ``visible``: the value the log sets CUDA_VISIBLE_DEVICES to;
    ``cpu_image``: TensorFlow's CPU Docker image the log shows a container started from;
    ``reached``: where and in which line the log shows TensorFlow itself with a GPU device
    (observed), which makes the reading of the answers that list none a note."""
    if reached is not None:
        # Both observed: the answers that list none are read as if alone, then weighed
        # against the GPU TensorFlow showed (:func:`_beside_gpu_shown`). An answer of the
        # devices the program chose (``chosen``: set_visible_devices, a session's
        # device_count) lists none in the very process that found the GPU: no answer here.
        listings = [(w, x) for w, x in listings if x.gpus == 0 and not x.chosen]
        if not listings:
            # No answer lists none: a build without CUDA (is_built_with_cuda() False) reaches
            # a GPU through a pluggable device (tensorflow-metal, DirectML) all the same.
            return []
    answers = [x for _, x in listings]
    if not answers or (gpus_listed(answers) != 0 and built_with_cuda(answers) is not False):
        return []
    if any(f.cause in _EXPLAINS_NO_GPU and f.severity.rank >= Severity.WARNING.rank for f in found):
        return []
    # The hosted notebooks' GPU guide raises SystemError('GPU device not found') from a cell.
    guide_check = notebook_cell and any(_GUIDE_CHECK in x.text for x in answers)
    order, shown, decided = _rank(
        m, built_with_cuda(answers), tf_dist, prompt, metal_shown, guide_check, visible
    )
    if cpu_image is not None and built_with_cuda(answers) is not True:
        # The image decides: TensorFlow's CPU images carry no CUDA libraries.
        order = ("cpu-build", *(k for k in order if k not in ("cpu-build", "windows-native")))
        shown, decided = f"The container runs {cpu_image}, TensorFlow's CPU image", True
    cause = causes.gpu.unlisted_gpu_cause(order)
    cited = "\n".join(f"{where}: {x.text}" for where, x in listings[:3])
    xla = sum(x.xla_gpus for x in answers)
    detail = [cited]
    if xla:
        detail.append(
            "The list holds XLA_GPU devices but no GPU: the CUDA driver answered, and TensorFlow "
            "did not register the GPU itself (its libraries did not load)."
        )
        order = ("libraries", *(k for k in order if k != "libraries"))
        cause = causes.gpu.unlisted_gpu_cause(order)
        decided = True
    reading = causes.finding(
        f"explain.{cause}",
        Severity.ERROR if decided or gpu_shown else Severity.WARNING,
        cause,
        "TensorFlow lists no GPU",
        "\n".join(detail),
        causes.container.gpu_image_fix(cpu_image, causes.container.mac_host(m))
        if cpu_image is not None and order[0] == "cpu-build"
        else causes.gpu.unlisted_gpu_fix(m, order, shown),
    )
    if reached is not None:
        return [_beside_gpu_shown(reading, reached, listings[0][0])]
    others = [k for k in order[1:] if not (gpu_build_shown and k == "cpu-build")]
    return [reading, *(() if decided else _candidates(others, cited, m))]


def _beside_gpu_shown(reading: Finding, reached: tuple[str, str], answered: str) -> Finding:
    """``reading`` (why TensorFlow lists no GPU) as a note where the same log shows TensorFlow
    with a GPU device (``reached``: where, and its line; ``answered``: where the first answer
    that lists none is): both are TensorFlow's own answers about the machine, so they come
    from more than one run, and what TensorFlow showed working outranks the inference from the
    empty answer (observed beats inferred). Where the empty answer comes after the GPU in the
    same block, the later run is the one that lists none, and the note says so."""
    where, line = reached
    later = _line_after(answered, where)
    if later:
        order = (
            "TensorFlow created or listed a GPU device first and a later run listed none, so "
            "what worked there no longer does in that run (another environment or machine, "
            "CUDA_VISIBLE_DEVICES hiding the GPU, or a GPU the driver lost after the first "
            "run, as after a crash: nvidia-smi shows whether it still answers). The GPU shown "
            "is what TensorFlow observed working; this is a note, and its fix is for the "
            "later run."
        )
    else:
        order = (
            "TensorFlow created or listed a GPU device in one place and listed no GPU in "
            "another, so the lines come from more than one run (another environment or "
            "machine, a run with the GPU hidden). What TensorFlow showed working wins over "
            "the reading of the empty answer: this is a note; the fix is for the run that "
            "listed none, where that run is the one that matters."
        )
    return dataclasses.replace(
        reading,
        severity=Severity.INFO,
        summary="The log shows TensorFlow with a GPU, and "
        + ("after it" if later else "elsewhere")
        + " an answer that lists none",
        detail=f"{where}: {line}\n{reading.detail}\nThe log holds both: {order}",
    )


def _line_after(one: str, other: str) -> bool:
    """Whether position ``one`` (``line 12``, ``LABEL, line 12``) is a later line of the same
    block as ``other``."""
    a, _, n = one.rpartition("line ")
    b, _, m = other.rpartition("line ")
    return a == b and n.isdigit() and m.isdigit() and int(n) > int(m)


def _candidates(keys: Sequence[str], cited: str, m: Machine) -> list[Finding]:
    """The candidates after the first, each a warning of its own cause: TensorFlow's answer is
    the same whatever the reason, so the log leaves them open."""
    out = []
    for key in keys:
        candidate = causes.gpu.UNLISTED_GPU_CANDIDATES[key]
        out.append(
            causes.other_candidate(
                candidate.cause,
                candidate.title,
                f"{cited}\nTensorFlow's answer is the same whatever the reason; what tells "
                f"this one apart: {candidate.tell}.",
                candidate.fix(m),
            )
        )
    return out


def _rank(
    m: Machine,
    with_cuda: Optional[bool],
    tf_dist: Optional[str],
    prompt: Optional[str],
    metal_shown: bool = False,
    guide_check: bool = False,
    visible: Optional[str] = None,
) -> tuple[tuple[str, ...], str, bool]:
    """The candidates most likely first, the evidence behind the order, and whether that
    evidence decides it (rather than only making the first the likeliest)."""
    line = m.line
    # None: the release is not known; else whether it has a native Windows GPU build.
    native = line.windows_native_gpu if line is not None else None
    rest = ("libraries", "driver", "cpu-build", "hidden")
    if with_cuda is not False and m.container and not causes.gpu.runtime_chooses_gpu(m):
        # A container the log shows (a run without a GPU flag, a CUDA image's paths, a pod's
        # output): its runtime hands it a GPU only when asked.
        return (
            ("driver", "libraries", "cpu-build", "hidden"),
            "The log shows a container, and no GPU handed to it",
            False,
        )
    if with_cuda is not False and causes.gpu.runtime_chooses_gpu(m):
        # A hosted notebook's VM has a GPU only where its runtime's accelerator is one: with
        # no library or driver error before it (that finding explains it), the runtime leads.
        # An instance type of a family without a GPU decides it: there is none to list.
        instance = m.hints.instance_type if m.hints is not None else None
        if causes.hosted.instance_without_gpu(instance):
            return (
                ("hosted-runtime", "libraries", "cpu-build", "hidden"),
                f"The log shows the job on {instance}, an instance type without a GPU",
                True,
            )
        return (
            ("hosted-runtime", "libraries", "cpu-build", "hidden"),
            f"The log shows a hosted notebook ({m.notebook}) and no library or driver error",
            False,
        )
    if m.os == "windows" and native is not True:
        shown = (
            f"The log shows native Windows and TensorFlow {m.tf.version}, which has no Windows "
            "GPU build"
            if native is False and m.tf is not None
            else "The log shows native Windows but not the TensorFlow release (2.11 and later "
            "have no Windows GPU build)"
        )
        return ("windows-native", *rest), shown, native is False
    if m.os == "macos" and not metal_shown and m.facts.package("tensorflow-metal") is None:
        # No CUDA build exists for macOS: Apple's plugin is the only way to its GPU. The log
        # not naming it is no proof it is absent: the likeliest reason, not a decided one.
        return ("metal", "cpu-build"), "The log shows macOS and no sign of tensorflow-metal", False
    # The CPU build installed, where the log names it: TensorFlow's own words (``dist``), else
    # the distribution the log's package listing shows installed (``pip list``'s row).
    tf_dist = tf_dist or (m.tf.name if m.tf is not None else None)
    if with_cuda is False or (tf_dist or "").endswith("-cpu") or m.os == "macos":
        why = (
            "tf.test.is_built_with_cuda() answered False"
            if with_cuda is False
            else "the log shows macOS"
            if m.os == "macos"
            else f"the log shows {tf_dist}"
        )
        return (
            # On macOS the CUDA candidates (libraries, driver, hidden GPUs) do not arise.
            ("cpu-build",)
            if m.os == "macos"
            else ("cpu-build", *(k for k in rest if k != "cpu-build")),
            f"The build has no CUDA: {why}",
            True,
        )
    if guide_check and m.os is None and not prompt and not m.container:
        # Colab's GPU notebook (tf.test.gpu_device_name(), then SystemError('GPU device not
        # found')) run in a cell, with no operating system shown: the check is the hosted
        # notebooks' own, and there a runtime without a GPU accelerator is the usual answer.
        # A likelihood, not a fact: a local Jupyter can run the same cell.
        return (
            ("hosted-runtime", "windows-native", "libraries", "driver", "cpu-build", "hidden"),
            "A notebook cell ran the hosted notebooks' GPU check (SystemError: GPU device not "
            "found) and the log shows no operating system",
            False,
        )
    if visible_hides_gpus(visible):
        # The variable set where the log shows it: CUDA lists no device for -1 or an empty
        # value, and none from the first index the machine does not have ("2" where it has
        # two GPUs). Likely, not decided: the index may exist. One that names GPU 0 first
        # hides no GPU where the machine has one: no reason to put it first.
        hides = (
            "which hides every GPU"
            if visible in ("", "-1")
            else "which hides every GPU where the machine has no GPU of that index"
        )
        return (
            ("hidden", *(k for k in rest if k != "hidden")),
            f"The log sets CUDA_VISIBLE_DEVICES={visible}, {hides}",
            False,
        )
    if m.os is not None or prompt:
        seen = f"the log shows {m.os}" if m.os else f"the prompt `{prompt}` is a Unix shell's"
        return rest, f"Nothing in the log says why ({seen})", False
    if native is True and m.tf is not None:
        seen = f"TensorFlow {m.tf.version} has a native Windows GPU build"
        return rest, f"Nothing in the log says why ({seen})", False
    # Neither the operating system nor a release with a Windows GPU build is shown: native
    # Windows, where pip's tensorflow has been a CPU build since 2.11 and prints nothing about
    # GPUs, is the commonest reason a listing is empty without a word from TensorFlow.
    return (
        ("windows-native", *rest),
        "The log shows neither the operating system nor why",
        False,
    )
