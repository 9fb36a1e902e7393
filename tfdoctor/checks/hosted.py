"""Checks on hosted notebook images and Cloud TPU VMs: the installed TensorFlow against what the
image ships (``data/hosted.yaml``), and TensorFlow on a TPU."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Optional

from tfdoctor import causes
from tfdoctor.checks._context import CheckContext
from tfdoctor.facts import normalize_name
from tfdoctor.findings import Finding, Severity
from tfdoctor.hosted import hosted_data
from tfdoctor.matrix import version_key

#: Distributions that carry libtpu (the TPU runtime TensorFlow's TPU build loads).
LIBTPU = ("libtpu", "libtpu-nightly")


def _older(version: Optional[str], floor: str) -> bool:
    """``version`` is a release before ``floor`` (its X.Y.Z, a missing part read as 0, so
    ``2.15`` is ``2.15.0``; a pre-release of ``floor`` is not older). False where the version
    is unknown."""

    def release(text: str) -> tuple[int, ...]:
        return (*version_key(text), 0, 0, 0)[:3]

    return bool(version) and release(version or "") < release(floor)


def check_hosted_tensorflow(ctx: CheckContext) -> Iterator[Finding]:
    """The installed TensorFlow is one the hosted image ships (a runtime version of it)."""
    hosted, m = ctx.facts.hosted, ctx.machine
    if hosted is None or hosted.name is None or hosted.name == "tpu-vm" or hosted.tpu_on_vm():
        return  # not hosted; on a TPU, hosted.tpu judges TensorFlow
    data = hosted_data()
    image = data.image(hosted.name)
    version = f" ({hosted.image_version})" if hosted.image_version else ""
    if image is None or image.latest is None:
        title = image.title if image is not None else hosted.name
        yield Finding(
            "hosted.tensorflow",
            Severity.INFO,
            f"Running on {title}{version}; tfdoctor has no record of the TensorFlow it ships",
            links=tuple(data.url(s) for s in image.sources) if image is not None else (),
        )
        return
    if m.tf is None:
        return  # packages.tensorflow says it is missing
    installed, python = m.tf.version, m.python_version
    links = tuple(data.url(s) for s in image.sources)
    # The runtime's Python tells its runtime version apart: a TensorFlow an older runtime
    # version ships is that runtime's only on that runtime's Python.
    running = image.running(python)
    release = image.shipping(installed, python)
    if release is None and running is not None and running.tf_version == installed:
        release = running  # the image's TensorFlow, on a Python of the user's own
    if release is not None:
        which = "the current runtime" if release is image.latest else f"runtime {release.release}"
        yield Finding(
            "hosted.tensorflow",
            Severity.OK,
            f"TensorFlow {installed} is the one {image.title}'s {which} ships",
            links=links,
        )
        return
    if running is None or running.tensorflow is None:
        return
    cuda = f", with {running.cuda}" if running.cuda else ""
    yield causes.finding(
        "hosted.tensorflow",
        Severity.WARNING,
        causes.hosted.HOSTED_TF_REPLACED,
        f"{m.tf.name} {installed} replaces the {running.tensorflow} {image.title} ships",
        f"{image.title}{version} ships {running.tensorflow} for Python {running.python}{cuda}; "
        f"{m.tf.name} {installed} was installed over it.",
        causes.hosted.back_to_image_fix(m, image, running),
        links,
    )


def check_tpu(ctx: CheckContext) -> Iterator[Finding]:
    """On a TPU: a generation TensorFlow runs on, and TensorFlow's TPU build with libtpu."""
    hosted, m = ctx.facts.hosted, ctx.machine
    if hosted is None or not hosted.tpu_on_vm() or m.tf is None:
        return
    data = hosted_data()
    generation = data.tpu(hosted.tpu_type)
    where = f"TPU {generation.generation}" if generation is not None else "this TPU"
    if generation is not None and not generation.tensorflow:
        yield causes.finding(
            "hosted.tpu",
            Severity.WARNING,
            causes.hosted.TPU_GENERATION_UNSUPPORTED,
            f"TensorFlow does not run on {where} ({hosted.tpu_type}): it will use the CPU",
            "",
            causes.hosted.tpu_generation_fix(generation.generation),
            (data.url(generation.source),),
        )
        return
    floor = generation.tensorflow_min if generation is not None else None
    if generation is not None and floor and _older(m.tf.version, floor):
        # Cloud TPU's software versions start these generations at a TensorFlow release:
        # neither the TPU build of an older one nor the CPU wheel's advice (its own release's
        # tensorflow-tpu) runs TensorFlow on this TPU.
        yield causes.finding(
            "hosted.tpu",
            Severity.WARNING,
            causes.hosted.TPU_GENERATION_UNSUPPORTED,
            f"{m.tf.name} {m.tf.version} is older than TensorFlow {floor}, the first that runs "
            f"on {where} ({hosted.tpu_type})",
            "",
            causes.hosted.tpu_tensorflow_floor_fix(m, generation.generation, floor),
            (data.url(generation.source),),
        )
        return
    libtpu = next((p for p in map(ctx.facts.package, LIBTPU) if p is not None), None)
    if m.tf.name == "tensorflow-tpu":
        via = f" with {libtpu.name} {libtpu.version}" if libtpu is not None else ""
        yield Finding("hosted.tpu", Severity.OK, f"{m.tf.name} {m.tf.version}{via} on {where}")
        return
    image = data.image(hosted.name) if hosted.name else None
    running = image.running(m.python_version) if image is not None else None
    shipped = running.tpu_tensorflow if running is not None else None
    if image is not None and shipped == f"{normalize_name(m.tf.name)}=={m.tf.version}":
        # The image's own TPU requirements ship this CPU-only TensorFlow (its maintainers left
        # the TPU build out): installing tensorflow-tpu over it is not what the image runs.
        yield causes.finding(
            "hosted.tpu",
            Severity.WARNING,
            causes.hosted.TPU_TF_WITHOUT_LIBTPU,
            f"{image.title}'s TPU image ships {shipped}, without TPU support: TensorFlow uses "
            "the CPU here",
            f"{image.title} records {shipped} as the TensorFlow of its TPU image, not the "
            "tensorflow-tpu build.",
            causes.hosted.image_cpu_tensorflow_fix(image),
            tuple(data.url(s) for s in running.sources) if running is not None else (),
        )
        return
    yield causes.finding(
        "hosted.tpu",
        Severity.WARNING,
        causes.hosted.TPU_TF_WITHOUT_LIBTPU,
        f"{m.tf.name} {m.tf.version} on {where} has no TPU support: it will use the CPU",
        "The TPU build is the tensorflow-tpu wheel, which installs libtpu from Google's "
        "libtpu index."
        + (
            ""
            if libtpu is None
            else f" ({libtpu.name} is installed, but {m.tf.name} does not load it.)"
        ),
        causes.hosted.tensorflow_tpu_fix(m, m.tf.version),
    )
