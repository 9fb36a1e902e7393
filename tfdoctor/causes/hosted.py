"""Causes on hosted notebook images and Cloud TPU VMs: a TensorFlow the image does not ship,
TensorFlow on a TPU without libtpu, a TPU generation TensorFlow does not run on."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Optional

from tfdoctor.causes.base import Cause, CauseId, define
from tfdoctor.findings import Fix
from tfdoctor.hosted import HostedImage, ImageRelease, hosted_data
from tfdoctor.machine import Machine
from tfdoctor.matrix import TFLine, version_key

#: The ids of this area's causes, as checks, explain and scan name them.
HOSTED_TF_REPLACED: Final = CauseId("hosted-tf-replaced")
HOSTED_RUNTIME_WITHOUT_GPU: Final = CauseId("hosted-runtime-without-gpu")
TPU_TF_WITHOUT_LIBTPU: Final = CauseId("tpu-tf-without-libtpu")
TPU_GENERATION_UNSUPPORTED: Final = CauseId("tpu-generation-unsupported")
TPU_NOT_FOUND: Final = CauseId("tpu-not-found")
TPU_HELD_BY_ANOTHER_PROCESS: Final = CauseId("tpu-held-by-another-process")
TPU_VERSION_MISMATCH: Final = CauseId("tpu-version-mismatch")
HOSTED_TF_LINE_DROPPED: Final = CauseId("hosted-tf-line-dropped")
PLATFORM_IMAGE_UNAVAILABLE: Final = CauseId("platform-image-unavailable")

#: The index the tensorflow-tpu wheels find their libtpu on (Cloud TPU's TensorFlow guide, and
#: tensorflow/recommenders' and tensorflow/models' TPU instructions: `pip install
#: tensorflow-tpu==X -f .../libtpu-tf-releases/index.html`); ``libtpu-releases`` is the index
#: of the libtpu builds PyTorch/XLA and JAX take, not TensorFlow's.
LIBTPU_INDEX = "https://storage.googleapis.com/libtpu-tf-releases/index.html"
TPU_TENSORFLOW = "https://cloud.google.com/tpu/docs/run-calculation-tensorflow"

#: Causes on hosted images and TPU VMs.
CAUSES: Mapping[str, Cause] = dict(
    (
        define(
            HOSTED_TF_REPLACED,
            "TensorFlow replaced on a hosted image that ships another",
            "A hosted image (Colab, Kaggle ...) ships one TensorFlow together with the CUDA and "
            "cuDNN wheels, Keras and add-ons built for it. `pip install -U tensorflow` replaces "
            "TensorFlow alone: the image's CUDA wheels and companions stay at the old release's "
            "versions, and the GPU or the import breaks. The image's own runtime versions "
            "ship other TensorFlow releases whole.",
            "https://research.google.com/colaboratory/runtime-version-faq.html",
        ),
        define(
            HOSTED_RUNTIME_WITHOUT_GPU,
            "A hosted notebook on a runtime without a GPU",
            "A hosted notebook (Colab, Kaggle ...) gets a GPU only when its runtime's accelerator "
            "is set to one; otherwise, or while the session still runs on the VM it had before "
            "the change, the VM has no NVIDIA device and TensorFlow lists no GPU. Installing "
            "CUDA or a driver there changes nothing: the runtime's setting does.",
            "https://research.google.com/colaboratory/faq.html",
        ),
        define(
            TPU_TF_WITHOUT_LIBTPU,
            "TensorFlow on a TPU VM without the TPU build and libtpu",
            "The `tensorflow` and `tensorflow-cpu` wheels carry no TPU support: on a Cloud TPU "
            "VM TensorFlow needs the `tensorflow-tpu` wheel, whose libtpu comes from Google's "
            "libtpu index, or it runs on the CPU only.",
            TPU_TENSORFLOW,
        ),
        define(
            TPU_NOT_FOUND,
            "No TPU is reachable from this runtime",
            "TensorFlow's TPU resolver finds a TPU by its name or address (TPU_NAME, a Cloud TPU "
            "VM's metadata, the runtime a notebook was given); on a runtime without one, or "
            "with the wrong name, it finds none.",
            TPU_TENSORFLOW,
        ),
        define(
            TPU_HELD_BY_ANOTHER_PROCESS,
            "Another process holds the TPU",
            "libtpu opens a TPU for one process at a time: while another holds it (a notebook "
            "kernel or an earlier run still alive, a second process of the same job), libtpu "
            "refuses this one ('The TPU is already in use by process with pid N'), TensorFlow "
            "goes on without the TPU ('libtpu.so is already in use by process with pid N. Not "
            "attempting to load libtpu.so in this process.'), and the TPU's device node says "
            "'Device or resource busy'.",
            "https://github.com/tensorflow/tensorflow/blob/v2.8.0/tensorflow/core/tpu/tpu_initializer_helper.cc",
        ),
        define(
            TPU_VERSION_MISMATCH,
            "The TPU runs another TensorFlow than the client",
            "A TPU node (Colab's TPU runtime, a Cloud TPU node) runs the TensorFlow of its TPU "
            "software version, and the client's TensorFlow sends it graphs and ops: a client of "
            "another release builds what the TPU's binary does not have (an op it has not "
            "registered, an internal op of another signature), and the run fails or the cores "
            "halt. Cloud TPU requires the same TensorFlow on both sides.",
            "https://cloud.google.com/tpu/docs/supported-tpu-configurations#tpu_software_versions",
        ),
        define(
            TPU_GENERATION_UNSUPPORTED,
            "A TPU generation TensorFlow does not run on",
            "Cloud TPU's TensorFlow software versions (tpu-vm-tf-x.y.z) run on the TPU "
            "generations Cloud TPU lists for them, the newer ones only from a given TensorFlow "
            "release on (the finding names it); later generations (TPU7x, Ironwood) support "
            "JAX and PyTorch/XLA only, so TensorFlow runs on the host's CPU there.",
            "https://cloud.google.com/tpu/docs/runtimes",
            "https://cloud.google.com/tpu/docs/tpu7x",
        ),
        define(
            HOSTED_TF_LINE_DROPPED,
            "The hosted image no longer offers the TensorFlow line the notebook selects",
            "A hosted image ships the TensorFlow lines it supports; Colab's `%tensorflow_version "
            "1.x` selected TensorFlow 1 while the image carried it, and since TensorFlow 1 left "
            "the image (August 2022) the magic raises 'Tensorflow 1 is unsupported in Colab'. "
            "The notebook has to run on the image's TensorFlow 2 or on a runtime of its own "
            "with TensorFlow 1.",
            "https://colab.research.google.com/notebooks/tensorflow_version.ipynb",
            "https://github.com/googlecolab/colabtools/blob/main/google/colab/_tensorflow_magics.py",
        ),
        define(
            PLATFORM_IMAGE_UNAVAILABLE,
            "The ML platform publishes no image for the TensorFlow and Python asked for",
            "A managed ML platform (SageMaker, Vertex AI) trains and serves TensorFlow in "
            "prebuilt images, one per framework release, Python and device it publishes; its "
            "SDK turns the job's framework version and Python into an image name, and a "
            "pairing the platform never built (SageMaker's legacy TensorFlow images, 1.4 to "
            "1.12, exist for Python 2 only) names an image that does not exist, so pulling it "
            "fails. A local install changes nothing: the job's pairing, or a custom image, does.",
            "https://github.com/aws/sagemaker-python-sdk/blob/v1.51.1/doc/using_tf.rst",
            "https://github.com/aws/deep-learning-containers/blob/master/available_images.md",
            "https://cloud.google.com/vertex-ai/docs/training/pre-built-containers",
        ),
    )
)


#: SageMaker's legacy-mode TensorFlow images (TensorFlow 1.4-1.12), whose tags end in the
#: Python: they were built for Python 2 only, and none after 1.12 ("The last supported version
#: of Legacy Mode will be TensorFlow 1.12", the SDK's using_tf.rst of v1.51.1; Python 3 came
#: with script mode and the TensorFlow Serving images, from 1.11).
_SAGEMAKER_LEGACY_TF = "/sagemaker-tensorflow:"
#: The TensorFlow lines those legacy images were built for, first and last.
_SAGEMAKER_LEGACY_LINES: Final = ((1, 4), (1, 12))


def platform_image_fix(image: Optional[str]) -> Fix:
    """A framework and Python pairing the platform publishes an image for, or a custom one."""
    # The TensorFlow line the legacy image's tag names (``1.12.0-gpu-py3``: 1.12).
    line = (
        version_key(image.rsplit(":", 1)[-1].split("-", 1)[0])[:2]
        if image is not None and _SAGEMAKER_LEGACY_TF in image
        else None
    )
    if (
        image is not None
        and line is not None
        and image.endswith("-py3")
        and _SAGEMAKER_LEGACY_LINES[0] <= line <= _SAGEMAKER_LEGACY_LINES[1]
    ):
        return Fix(
            f"SageMaker publishes no {image.rsplit('/', 1)[-1]} image: its legacy-mode "
            "TensorFlow images (sagemaker-tensorflow, TensorFlow 1.4 to 1.12, used by "
            "TensorFlowModel and estimators without script mode) exist for Python 2 only. "
            "Pass py_version='py2' (an entry point written for Python 2.7), or move to script "
            "mode and the TensorFlow Serving model (sagemaker.tensorflow.serving.Model) with "
            "TensorFlow 1.11 or later for Python 3.",
            (),
        )
    if image is not None and line is not None and line > _SAGEMAKER_LEGACY_LINES[1]:
        return Fix(
            f"SageMaker publishes no {image.rsplit('/', 1)[-1]} image, nor one of that "
            "TensorFlow for Python 2: its legacy-mode TensorFlow images (sagemaker-tensorflow, "
            "used by TensorFlowModel and estimators without script mode) end at TensorFlow "
            "1.12. Deploy with the TensorFlow "
            "Serving model (sagemaker.tensorflow.serving.Model, whose images carry TensorFlow "
            "1.11 and later), and train in script mode (script_mode=True).",
            (),
        )
    named = f" ({image})" if image else ""
    return Fix(
        f"The platform publishes no image{named} for this framework version, Python and "
        "device: set the job's framework version and Python to a pairing in the platform's "
        "list of prebuilt images, or build and push a custom image and pass it as the image "
        "URI.",
        (),
    )


def cloud_tpu_version_fix(version: Optional[str]) -> Fix:
    """A TensorFlow version Cloud TPU's service does not offer as a TPU software version
    (ctpu's refusal): one it lists, or the nightly. ctpu asks the service for the list
    (ConfigureTFVersion calls ListVersions), so no newer ctpu adds a version."""
    asked = f"TensorFlow {version}" if version else "the TensorFlow version asked for"
    return Fix(
        f"Cloud TPU offers no TPU software version for {asked}: the service publishes each "
        "release some time after PyPI does, and retires old ones. `ctpu tf-versions` lists "
        "what it offers now (ctpu asks the service, so a newer ctpu lists no more): pass one "
        "of them (`ctpu up --tf-version=...`, or `nightly`), with the same TensorFlow release "
        "in the client.",
        ("ctpu tf-versions",),
    )


def cloud_tpu_vm_image_fix() -> Fix:
    """No Compute Engine image for the VM ctpu creates beside the TPU: a TensorFlow version
    whose image is published, or an image of one's own. ctpu resolves the image family of the
    version (``tf-1-7``; ``tf-2-4-0`` from 2.4 and for a patch release; ``tf-nightly``) in the
    ml-images project and takes any failure of that look-up for no image (tools/ctpu/ctrl/
    gce.go, resolveImageFamily and CreateInstance; tools/ctpu/commands/up.go,
    gceImageFamily)."""
    return Fix(
        "ctpu found no Compute Engine image for the VM it creates beside the TPU: it takes the "
        "newest image of the TensorFlow version's family (tf-X-Y; tf-X-Y-Z from 2.4 and for a "
        "patch release; tf-nightly) in the ml-images project, and reads any failure of that "
        "look-up as no image, so either none is published for the version asked for (a "
        "version can be offered before its VM image exists) or the project's Compute Engine "
        "API refused the look-up. Pass a version whose family is listed "
        "(`ctpu up --tf-version=X.Y`), or an image of your own with `--gce-image`.",
        ('gcloud compute images list --project=ml-images --filter="family~^tf-"',),
    )


def _python_key(tag: str) -> tuple[int, ...]:
    """The order of a SageMaker Python tag (``py310`` after ``py39``)."""
    digits = tag[2:] if tag.startswith("py") else tag
    return (int(digits[:1]), int(digits[1:] or 0)) if digits.isdigit() else (0,)


def sagemaker_sdk_fix(m: Machine, setting: str, value: str, supported: str) -> Fix:
    """A framework version and Python the SageMaker SDK's image table lists (``supported``,
    as its refusal of ``setting`` = ``value`` names them), or a newer SDK where the value is
    newer than everything its table knows."""
    # The list ends the SDK's sentence: its full stop is no part of the last value.
    supported = supported.rstrip(".")
    listed = [v for v in supported.split(", ") if v]
    sdk_upgrade = m.pip("install -U sagemaker")
    if setting.lower().startswith("python"):
        newest = max(listed, key=_python_key) if listed else None
        newer = newest is not None and _python_key(value) > _python_key(newest)
        pick = f"py_version='{newest}'" if newest else "a py_version it lists"
        text = (
            f"The SDK has images of this framework version for {supported} only, not {value}: "
            f"pass {pick} (the entry point runs in the image's Python, not the notebook's), "
            "or a framework_version whose images have the Python the code needs."
        )
        if newer:
            text += (
                f" A Python newer than {newest} needs a newer SDK (and framework release): "
                "upgrade it and restart the kernel."
            )
        return Fix(text, sdk_upgrade if newer else ())
    releases = [v for v in listed if v[:1].isdigit()]
    newest = max(releases, key=version_key) if releases else None
    older = [v for v in releases if version_key(v) <= version_key(value)]
    nearest = max(older, key=version_key) if older else None
    if newest is not None and version_key(value) > version_key(newest):
        # Newer than every release this SDK knows: a newer SDK may know its images, and where
        # the newest SDK refuses it too, AWS publishes none.
        return Fix(
            f"This SDK's image table ends at TensorFlow {newest}: upgrade the sagemaker "
            f"package and restart the kernel, then run again. Where the newest SDK still "
            f"refuses {value}, AWS publishes no prebuilt image for it: pass "
            f"framework_version='{newest}', or build and push a custom image and pass it "
            "as image_uri.",
            sdk_upgrade,
        )
    pick = f"framework_version='{nearest}'" if nearest else "a framework_version it lists"
    return Fix(
        f"AWS publishes no prebuilt TensorFlow image of release {value} (the SDK's table "
        f"lists {supported}): pass {pick}, with a py_version its images have, or build and "
        "push a custom image and pass it as image_uri.",
        (),
    )


def sagemaker_versions_unset_fix() -> Fix:
    """Name the framework version and Python (SDK 2 defaults neither), or a custom image."""
    return Fix(
        "The SageMaker Python SDK 2 no longer defaults the framework version and Python: pass "
        "both framework_version and py_version to the estimator or model (a pairing the "
        "SDK's image table lists; sagemaker.image_uris.retrieve with the same values answers "
        "with the image, or refuses naming the list), or image_uri of a custom image. Code "
        'written for SDK 1, which defaulted them, can instead keep "sagemaker<2".',
        ('python -c "import sagemaker; print(sagemaker.__version__)"',),
    )


def hosted_python_words(
    m: Machine, image: HostedImage, version: str, gpu: bool = False
) -> Optional[str]:
    """Where a hosted image's Python has no wheel of TensorFlow ``version``: the words that
    name the image's runtime version whose Python its Linux wheels serve (the hosted table
    beside the matrix), or, where none does, a machine of the user's own. Where the notebook
    uses a GPU (``gpu``), the runtime version whose own TensorFlow's CUDA and cuDNN majors are
    the pinned release's is chosen first, and the words say when the one chosen has not
    them. None where the matrix does not know the release's Pythons."""
    line = m.matrix.line_for(version) if m.matrix is not None else None
    pythons = line.pythons_on("linux-x86_64") if line is not None else ()
    if line is None or not pythons:
        return None
    span = f"Python {pythons[0]} to {pythons[-1]}" if len(pythons) > 1 else f"Python {pythons[0]}"
    said = (
        f"On {image.title} the Python comes with the runtime and pip cannot change it: "
        f"TensorFlow {version}'s Linux wheels serve {span}"
    )
    fitting = [r for r in image.releases if r.python in pythons]
    if gpu:
        # Those with the pinned release's CUDA first: sorted() keeps the order within each.
        fitting.sort(key=lambda r: _gpu_libraries(m, r) != _gpu_libraries_of(line))
    if fitting:
        fits = fitting[0]
        return (
            f"{said}, which the runtime version {fits.release} runs (Python {fits.python}; "
            f"{image.change_runtime})." + (_hosted_gpu_words(m, fits, version) if gpu else "")
        )
    # Colab connects a notebook to a Jupyter server of the user's own ("Connect to a local
    # runtime", research.google.com/colaboratory/local-runtimes.html); Kaggle and the other
    # images offer no such thing: the code runs off the image.
    elsewhere = (
        f"on a local runtime with Python {pythons[-1]}"
        if image.name == "colab"
        else f"off {image.title}, on a machine of your own with Python {pythons[-1]}"
    )
    return (
        f"{said}, and no runtime version {image.title} offers runs one of them: port the code "
        f"to a release pip lists, or run it {elsewhere}."
    )


def _gpu_libraries_of(line: Optional[TFLine]) -> Optional[tuple[str, str]]:
    """The CUDA and cuDNN majors a TensorFlow line's Linux GPU build loads, from the matrix
    (None where it does not record them)."""
    if line is None or not line.cuda or not line.cudnn:
        return None
    return line.cuda.split(".")[0], line.cudnn.split(".")[0]


def _gpu_libraries(m: Machine, release: ImageRelease) -> Optional[tuple[str, str]]:
    """The CUDA and cuDNN majors of the TensorFlow a runtime version ships: the libraries
    the image carries are built for its own release."""
    version = release.tf_version
    line = m.matrix.line_for(version) if m.matrix is not None and version else None
    return _gpu_libraries_of(line)


def _hosted_gpu_words(m: Machine, release: ImageRelease, version: str) -> str:
    """For a notebook on the GPU: whether TensorFlow ``version`` installed on the runtime
    version ``release`` finds its CUDA and cuDNN there, and what gets it them."""
    line = m.matrix.line_for(version) if m.matrix is not None else None
    wanted, there = _gpu_libraries_of(line), _gpu_libraries(m, release)
    if wanted is None or there is None:
        return (
            " The notebook uses the GPU: the runtime's CUDA libraries are built for its own "
            f"{release.tensorflow}; after installing TensorFlow {version}, "
            "tf.config.list_physical_devices('GPU') tells whether it still sees the GPU."
        )
    if line is None or wanted == there:
        return ""
    # TensorFlow's Linux wheel dlopens the CUDA and cuDNN of its build's majors (dso_loader.cc:
    # libcudart.so.<major>, libcudnn.so.<major>; under tensorflow/tsl/platform/default from
    # 2.12) and, finding none, registers no GPU.
    said = (
        f" The notebook uses the GPU, and TensorFlow {version} loads CUDA {line.cuda} and "
        f"cuDNN {line.cudnn} while that runtime's are CUDA {there[0]} and cuDNN {there[1]}, "
        f"built for its own {release.tensorflow}: installed alone, TensorFlow {version} finds "
        "no GPU there"
    )
    keep = "port the code to the runtime's TensorFlow to keep the GPU."
    if line.and_cuda:
        # The and-cuda extra pins the NVIDIA wheels of the build's CUDA and cuDNN.
        return (
            f'{said}; install it with its CUDA wheels (pip install "tensorflow[and-cuda]=='
            f'{version}"), or {keep}'
        )
    return f"{said} (its release has no pip CUDA wheels): {keep}"


def instance_without_gpu(instance_type: Optional[str]) -> bool:
    """Whether a SageMaker instance type (``ml.m5.xlarge``) is of a family the hosted table
    lists without a GPU (a family it does not list is not judged)."""
    family = hosted_data().instance_family(instance_type)
    return family is not None and not family.gpu


def sagemaker_without_gpu(m: Machine) -> bool:
    """A SageMaker instance without a GPU: the instance type named is of a family the hosted
    table lists without one, or the kernel facts show no NVIDIA GPU on a machine whose markers
    say SageMaker (:attr:`Machine.no_nvidia_gpu_seen`: the PCI bus read holds no NVIDIA
    device, which an instance type with a GPU would have)."""
    if m.notebook != "sagemaker":
        return False
    instance = m.hints.instance_type if m.hints is not None else None
    return instance_without_gpu(instance) or m.no_nvidia_gpu_seen


def hosted_image(name: Optional[str]) -> Optional[HostedImage]:
    """The hosted notebook image ``name`` (``colab``, ``kaggle``) from the hosted-image table,
    or None (no name, or one the table does not hold)."""
    return hosted_data().image(name) if name else None


def hosted_gpu_runtime_fix(m: Machine) -> Fix:
    """A runtime with a GPU accelerator on the hosted notebook ``m`` shows (``colab``; the
    choices of the commonest where the log does not say which), then a fresh session. On a
    SageMaker instance type without a GPU, also the other way out: the CPU build on it."""
    data = hosted_data()
    image = data.image(m.notebook) if m.notebook else None
    where = (
        f"On {image.title}: {image.accelerator}"
        if image is not None
        else "Set the notebook runtime's accelerator to a GPU ("
        + "; ".join(
            f"{i.title}: {i.accelerator}" for i in map(data.image, ("colab", "kaggle")) if i
        )
        + ")"
    )
    again = "run the notebook again from the top"
    instance = m.hints.instance_type if m.hints is not None else None
    if sagemaker_without_gpu(m):
        # The GPU build needs the driver only a GPU instance has; TensorFlow's CPU build (the
        # framework's CPU image) runs on the instance as it is. Where no instance type is
        # named, the probe's empty PCI bus is what says this one has no GPU.
        named = instance if instance_without_gpu(instance) else None
        this = named or "this instance type"
        none = "which has none" if named else "which has none (no NVIDIA device on its PCI bus)"
        where = (
            f"{where} in place of {this}, {none}, or keep {named or 'it'} and run "
            "TensorFlow's CPU build there (the framework's CPU image, not its GPU one)"
        )
        again = "start the job or endpoint again"
    return Fix(
        f"{where}; {again}. Do not install CUDA or a driver on the "
        "runtime: `nvidia-smi` answering is the sign the VM has the GPU.",
        ("nvidia-smi",),
    )


def tpu_version_fix() -> Fix:
    """Run the client with the TensorFlow the TPU runs (or the TPU with the client's); on
    Colab, worded for what its current TPU runtime ships (the hosted table)."""
    colab = hosted_image("colab")
    shipped = colab.releases[0].tpu_tensorflow if colab is not None and colab.releases else None
    # Colab's TPU runtimes are now TPU VMs whose pip freeze (backend-info's
    # pip-freeze.tpu.txt) holds jax and libtpu and no TensorFlow: no TPU server with its own
    # TensorFlow is left to match, only the notebook's install.
    on_colab = (
        f"on Colab keep the {shipped} its TPU runtime ships (do not pip install another, or "
        "restart the runtime after uninstalling it)"
        if shipped
        else "on Colab, whose TPU runtimes now ship no TensorFlow and run the TPU in the "
        "notebook's own process, install TensorFlow's TPU build there (tensorflow-tpu, with "
        f"libtpu from {LIBTPU_INDEX}) in place of the tensorflow wheel"
    )
    return Fix(
        f"Use the same TensorFlow on the client as on the TPU: {on_colab}; on a Cloud TPU "
        "node, create the TPU with the software version of the client's TensorFlow "
        "(tf-nightly needs the nightly TPU software), or install the client TensorFlow of the "
        "TPU's version.",
        (
            'python -c "import tensorflow as tf; print(tf.__version__)"',
            "gcloud compute tpus describe $TPU_NAME --zone $ZONE "
            "--format='value(tensorflowVersion)'",
        ),
    )


def back_to_image_fix(m: Machine, image: HostedImage, shipped: ImageRelease) -> Fix:
    """Put the image's own TensorFlow back, or pick the runtime version that ships the one
    installed; never ``pip install -U tensorflow`` alone."""
    installed = m.tf.version if m.tf is not None else None
    other = image.shipping(installed) if installed else None
    choose = (
        f" Or keep TensorFlow {installed} by choosing the runtime version {other.release} "
        f"({image.change_runtime}), which ships it whole, with Python {other.python}."
        if other is not None
        else ""
    )
    spec = shipped.tensorflow or ""
    return Fix(
        f"Reinstall the TensorFlow {image.title} ships ({spec}) and restart the runtime "
        f"({image.restart}).{choose} Do not run `pip install -U tensorflow` on the image: it "
        "leaves the image's CUDA wheels and companions behind.",
        m.pip_install(spec) if spec else (),
    )


def installed_over_image_fix(
    m: Machine,
    image: HostedImage,
    dist: Optional[str],
    version: Optional[str],
    requirer: Optional[str] = None,
) -> Fix:
    """A TensorFlow the notebook installed over the image's own (``dist``; None where the log
    shows the pairing broken but not the install), brought by the install of ``requirer``
    (``sleap 1.1.5``) where the log shows which: a fresh runtime brings the image's
    TensorFlow back with the CUDA and cuDNN built for it; the code is fitted to that
    TensorFlow (or to a runtime version that ships the release it needs), not the reverse."""
    # Only a new VM brings the image's packages back: a restart keeps what pip installed.
    fresh = (
        "Runtime > Disconnect and delete runtime (Restart session keeps what pip installed)"
        if image.name == "colab"
        else "stop the session and start a new one (restarting the kernel keeps what pip installed)"
    )
    if dist is None:
        said = (
            f"The TensorFlow that ran and the CUDA and cuDNN libraries {image.title} ships do "
            "not pair, and the image's own TensorFlow is built for them: the notebook replaced "
            "one or the other. Remove the line that installs TensorFlow (or the package that "
            "pins it: use its release that supports the image's TensorFlow) or CUDA and cuDNN "
            f"libraries (apt, conda, pip's nvidia-* wheels), then start a fresh runtime: {fresh}. "
        )
    elif requirer is not None:
        what = f"{dist}=={version}" if version else dist
        name = requirer.split()[0]
        said = (
            # pip's "(from X)" names the package nearest TensorFlow, which the notebook may have
            # installed as another's dependency: installed in the notebook, not asked for.
            f"Installing {requirer} in the notebook brought {what} over the TensorFlow "
            f"{image.title} ships ({name}, or a package it requires, asks for that "
            "TensorFlow), and the image's CUDA, cuDNN and companion packages are built for its "
            f"own release, not for this one. Install the {name} release that supports the "
            "image's TensorFlow (its requirements or release notes name the TensorFlow each "
            f"release needs) in place of the one installed, then start a fresh runtime: {fresh}. "
        )
    else:
        what = f"{dist}=={version}" if version else dist
        said = (
            f"The notebook installed {what} over the TensorFlow {image.title} ships, and the "
            "image's CUDA, cuDNN and companion packages are built for its own release, not for "
            f"this one. Remove the line that installs {dist} (or the package that pins it: use "
            f"its release that supports the image's TensorFlow), then start a fresh runtime: "
            f"{fresh}. "
        )
    return Fix(
        said + "Code that needs another TensorFlow: choose the runtime version that ships it "
        f"({image.change_runtime}). The commands show what the runtime has after the reset.",
        (
            'python -c "import tensorflow as tf; print(tf.__version__, '
            "tf.sysconfig.get_build_info().get('cudnn_version'))\"",
            *m.pip_look(
                "list", " 2>/dev/null | grep -i -E '^(tensorflow|tf-nightly|nvidia-cudnn)'"
            ),
        ),
    )


def tensorflow_tpu_fix(m: Machine, version: Optional[str]) -> Fix:
    """Install the TPU build of this TensorFlow release, with libtpu from Google's index."""
    spec = f"tensorflow-tpu=={version}" if version else "tensorflow-tpu"
    # Two distributions of the `tensorflow` import package overwrite each other's files.
    installed = m.tf.name if m.tf is not None and m.tf.name != "tensorflow-tpu" else None
    remove = m.pip(f"uninstall -y {installed}") if installed else ()
    commands = (*remove, *m.pip(f'install "{spec}" -f {LIBTPU_INDEX}'))
    return Fix(
        "Install the TPU build of TensorFlow (it brings libtpu) in place of the CPU wheel, "
        "then restart Python and connect with tf.distribute.cluster_resolver.TPUClusterResolver.",
        commands,
    )


def image_cpu_tensorflow_fix(image: HostedImage) -> Fix:
    """TensorFlow on an accelerator of this image that its TensorFlow supports: a GPU."""
    return Fix(
        f"On {image.title}'s TPU image TensorFlow runs on the CPU only. For TensorFlow on an "
        "accelerator, switch the notebook to a GPU accelerator; keep the TPU for a framework "
        "the image ships a TPU build of.",
        (),
    )


def tpu_not_found_fix() -> Fix:
    """A runtime that has a TPU, and the resolver pointed at it."""
    return Fix(
        "Run on a runtime that has a TPU (a notebook's runtime type set to TPU, or a Cloud TPU "
        "VM) and let the resolver find it there, or pass the TPU's name or address: "
        "tf.distribute.cluster_resolver.TPUClusterResolver(tpu=NAME). On a Cloud TPU VM "
        "itself, only TensorFlow's TPU build (tensorflow-tpu, with libtpu) registers the "
        "TPU's devices; the tensorflow wheel from PyPI sees none.",
        ('echo "TPU_NAME=$TPU_NAME"', "ls /dev/accel* /dev/vfio 2>/dev/null"),
    )


def tpu_tensorflow_floor_fix(m: Machine, generation: str, floor: str) -> Fix:
    """TensorFlow older than the first release Cloud TPU runs on this generation (``floor``,
    hosted.yaml's ``tensorflow_min``): the TPU build of ``floor`` or later, in place of it."""
    installed = m.tf.name if m.tf is not None and m.tf.name != "tensorflow-tpu" else None
    remove = m.pip(f"uninstall -y {installed}") if installed else ()
    unfloored = list(
        dict.fromkeys(
            g.generation
            for g in hosted_data().tpu_generations
            if g.tensorflow and not g.tensorflow_min
        )
    )
    keep = (
        f", or keep this release on a TPU {', '.join(unfloored[:-1])}"
        f"{' or ' if len(unfloored) > 1 else ''}{unfloored[-1]}, whose software versions "
        "cover older releases"
        if unfloored
        else ""
    )
    runs = (
        f"Cloud TPU runs TensorFlow on TPU {generation} from TensorFlow {floor} on (software "
        f"versions tpu-vm-tf-X.Y.Z-pjrt, or tpu-vm-tf-X.Y.Z-pod-pjrt on a multi-host slice). "
    )
    python = m.python_version
    # pip takes the newest tensorflow-tpu whose wheels the interpreter can install: on a Python
    # no release from the floor on has wheels for, `tensorflow-tpu>=FLOOR` finds no match and
    # fails. Assumed, not read from a source of tensorflow-tpu's own: a tensorflow-tpu release
    # has wheels for the Pythons of the tensorflow release of its number (PyPI's tensorflow-tpu
    # 2.16.1 to 2.20.0 do), so the matrix's lines' Pythons stand for its Pythons. Not every
    # tensorflow release has a tensorflow-tpu (PyPI has tensorflow 2.21.0, no tensorflow-tpu
    # 2.21.0), so the fix names no release of it beyond the floor: pip finds the newest.
    above = _lines_from(m, floor)
    if python and above and not any(m.line_fits(x, "linux-") for x in above):
        pythons = sorted({p for x in above for p in x.pythons_on("linux-")}, key=version_key)
        return Fix(
            f"{runs}No TensorFlow release from {floor} on has wheels for Python {python}, so "
            "pip cannot install the TPU build here: create an environment with a Python "
            f"those releases serve ({pythons[0]} to {pythons[-1]}) first, then install the TPU "
            f'build of {floor} or later there (pip install "tensorflow-tpu>={floor}" -f '
            f"{LIBTPU_INDEX}){keep}.",
            (),
        )
    return Fix(
        f"{runs}Install the TPU build of {floor} or a later release in place of this one{keep}.",
        (*remove, *m.pip(f'install "tensorflow-tpu>={floor}" -f {LIBTPU_INDEX}')),
    )


def _lines_from(m: Machine, floor: str) -> list[TFLine]:
    """The matrix's lines with a final release from ``floor`` on, newest first (none without
    the matrix)."""
    if m.matrix is None:
        return []
    return [x for x in m.matrix.releases if version_key(x.latest_patch) >= version_key(floor)]


def tpu_generation_fix(generation: str) -> Fix:
    """Use JAX or PyTorch/XLA on this TPU, or a TPU generation TensorFlow runs on (the newest
    four of hosted.yaml's, with the floor of those that have one)."""
    runs = [g for g in hosted_data().tpu_generations if g.tensorflow]
    names = list(dict.fromkeys(g.generation for g in reversed(runs)))[:4]
    floors = {g.generation: g.tensorflow_min for g in runs if g.tensorflow_min}
    floored = [n for n in names if n in floors]
    floor = (
        f" (on {', '.join(floored[:-1])} and {floored[-1]} a -pjrt one, TensorFlow "
        f"{floors[floored[0]]} or later)"
        if len(floored) > 1 and len({floors[n] for n in floored}) == 1
        else ""
    )
    return Fix(
        f'On TPU {generation} use JAX (pip install "jax[tpu]") or PyTorch/XLA; for TensorFlow, '
        f"create the TPU VM on a generation it runs on ({', '.join(names)}) with a tpu-vm-tf-* "
        f"software version{floor}.",
        (),
    )


def hosted_tf1_dropped_fix(m: Machine) -> Fix:
    """A notebook selecting TensorFlow 1 on an image that no longer has it: TensorFlow 2's
    tf.compat.v1, or a local runtime with TensorFlow 1.15 under the newest Python the matrix
    lists 1.15's wheels for."""
    line = m.matrix.line_for("1.15") if m.matrix is not None else None
    pythons = line.pythons_on() if line is not None else ()
    python = pythons[-1] if pythons else None
    local = (
        "Code that needs TensorFlow 1 itself runs on a local runtime (Connect > Connect to a "
        f"local runtime) with TensorFlow 1.15 under Python {python} or older."
        if python
        else "Code that needs TensorFlow 1 itself runs on a local runtime (Connect > Connect "
        "to a local runtime) with TensorFlow 1.15 under a Python its wheels serve."
    )
    return Fix(
        "This image no longer ships TensorFlow 1: remove the `%tensorflow_version 1.x` line and "
        "run the notebook on the image's TensorFlow 2 (TensorFlow 1 code through "
        "`import tensorflow.compat.v1 as tf` and `tf.disable_v2_behavior()`, or the project's "
        "release for TensorFlow 2). " + local,
        (
            # An environment of the newest Python TensorFlow 1.15's wheels serve (a venv: the
            # local machine's installer is not shown, so no conda).
            f"python{python} -m venv tf1",
            f'tf1/bin/python -m pip install "tensorflow=={line.latest_patch}" jupyter',
            "tf1/bin/jupyter notebook "
            "--NotebookApp.allow_origin='https://colab.research.google.com' "
            "--port=8888 --NotebookApp.port_retries=0",
        )
        if python and line is not None
        else (),
    )


def tpu_busy_fix(pid: Optional[str] = None, device: Optional[str] = None) -> Fix:
    """The process that holds the TPU, ended: libtpu takes a TPU for one process at a time
    (TensorFlow's tpu_initializer_helper.cc; Cloud Dataflow's TPU troubleshooting page),
    ``pid`` where libtpu named it, else the one lsof finds on the TPU's device node
    (``device``, ``vfio/0``; /dev/accel* and /dev/vfio/* where the log names none)."""
    nodes = f"/dev/{device}" if device else "/dev/accel* /dev/vfio/*"
    holder = f"process {pid}" if pid else "the process lsof lists"
    return Fix(
        f"One process at a time can use a TPU, and another holds it: end {holder} (a notebook "
        "kernel or an earlier run still alive, a second process of the same job), or give "
        "each process a TPU of its own; then start this one again.",
        (
            f"ps -o pid,user,etime,args -p {pid}" if pid else f"sudo lsof -w {nodes}",
            # Without a pid, the holders lsof finds are ended (-t prints their pids only); sudo
            # as for lsof, since the holder may be another user's.
            f"kill {pid}" if pid else f"sudo lsof -t -w {nodes} | xargs -r sudo kill",
        ),
    )
