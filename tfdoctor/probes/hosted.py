"""Which hosted notebook image or Cloud TPU VM this runs on, from the markers each one leaves.

Reading is a few environment look-ups and ``os.path.exists``; judging what the image ships
is the checks' business (:mod:`tfdoctor.checks.hosted`). The markers, and where each is
documented or read by the vendor's own code:

- Kaggle: ``KAGGLE_KERNEL_RUN_TYPE`` and ``KAGGLE_URL_BASE``, and the image's build date in
  ``/etc/build_date`` (Kaggle's own ``kagglehub``, ``src/kagglehub/env.py``). Kaggle's GPU
  and CPU images are built from Colab's (``Kaggle/docker-python``, ``Dockerfile.tmpl``), so
  they also carry Colab's markers: Kaggle is looked for first.
- Colab: ``COLAB_RELEASE_TAG`` (the runtime's release, which ``kagglehub`` reads too),
  ``COLAB_GPU``, ``COLAB_TPU_ADDR``.
- SageMaker: ``SAGEMAKER_INTERNAL_IMAGE_URI`` (Studio images), the ``SM_*`` variables the
  SageMaker training toolkit sets in a training job (``SM_CURRENT_HOST``, ``SM_TRAINING_ENV``),
  ``/opt/ml/metadata/resource-metadata.json`` (notebook instances and Studio apps:
  https://docs.aws.amazon.com/sagemaker/latest/dg/nbi-metadata.html).
- Vertex AI Workbench: the Deep Learning VM image it runs leaves
  ``/opt/deeplearning/metadata/images_version``
  (https://cloud.google.com/deep-learning-vm/docs/images).
- Databricks: ``DATABRICKS_RUNTIME_VERSION`` (the runtime release, ``16.4``).
- Paperspace Gradient: ``PAPERSPACE_NOTEBOOK_REPO_ID``.
- Cloud TPU VM: ``TPU_NAME`` and ``TPU_ACCELERATOR_TYPE`` (``v5litepod-8``), which GKE sets
  in a TPU pod (Ray's TPU support reads them there and asks the metadata server on a VM made
  with gcloud: ``ray-project/ray``, ``python/ray/_private/accelerators/tpu.py``); ``ISTPUVM``,
  which Kaggle's TPU image sets (``Kaggle/docker-python``, ``tpu/Dockerfile``) and its own
  ``patches/kaggle_datasets.py`` reads; and the TPU device nodes, ``/dev/accelN`` (v2 to v4)
  and ``/dev/vfio/N`` (v5e, v5p, v6e, 7x), as Google's ``tpu-info`` names each chip's
  (``AI-Hypercomputer/cloud-accelerator-diagnostics``, ``tpu_info/tpu_info/device.py``,
  ``chip_path``) and Ray counts them. A TPU VM made with gcloud sets no TPU variable (Ray
  asks its metadata server instead); there the TPU chips on the PCI bus, Google's vendor id
  with a TPU device id, say that this is a TPU and which generation, as ``tpu-info`` reads
  them (``TpuChip.from_pci_device_id``) and JAX does (``jax/_src/hardware_utils.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Optional

from tfdoctor.facts import HostedFacts

#: (image, environment variable) in the order images are told apart: the first image with
#: a marker is the one reported (Kaggle before Colab, see the module's note).
ENV_MARKERS: tuple[tuple[str, str], ...] = (
    ("kaggle", "KAGGLE_KERNEL_RUN_TYPE"),
    ("kaggle", "KAGGLE_URL_BASE"),
    ("colab", "COLAB_RELEASE_TAG"),
    ("colab", "COLAB_GPU"),
    ("colab", "COLAB_TPU_ADDR"),
    ("sagemaker", "SAGEMAKER_INTERNAL_IMAGE_URI"),
    ("sagemaker", "SM_CURRENT_HOST"),
    ("sagemaker", "SM_TRAINING_ENV"),
    ("databricks", "DATABRICKS_RUNTIME_VERSION"),
    ("paperspace", "PAPERSPACE_NOTEBOOK_REPO_ID"),
    ("tpu-vm", "TPU_NAME"),
    ("tpu-vm", "TPU_ACCELERATOR_TYPE"),
    ("tpu-vm", "ISTPUVM"),
)
#: (image, file) markers, relative to the root.
PATH_MARKERS: tuple[tuple[str, str], ...] = (
    ("sagemaker", "opt/ml/metadata/resource-metadata.json"),
    ("vertex", "opt/deeplearning/metadata/images_version"),
)
#: Where an image names its own version: an environment variable or a file (first line).
VERSION_SOURCES: Mapping[str, tuple[str, str]] = {
    "colab": ("env", "COLAB_RELEASE_TAG"),
    "kaggle": ("file", "etc/build_date"),
    "databricks": ("env", "DATABRICKS_RUNTIME_VERSION"),
    "vertex": ("file", "opt/deeplearning/metadata/images_version"),
    "sagemaker": ("env", "SAGEMAKER_INTERNAL_IMAGE_URI"),
}
#: TPU device nodes: ``accel`` for v2 to v4, numbered VFIO groups for v5e and later. A VFIO
#: group also serves any device passed through to a virtual machine, so it counts only
#: where a TPU variable says this is a TPU VM.
ACCEL_GLOB = "dev/accel*"
VFIO_GLOB = "dev/vfio/[0-9]*"

#: PCI devices, each a folder with ``vendor``, ``device`` and ``subsystem_device`` files.
PCI_DEVICES = "sys/bus/pci/devices"
#: Google's PCI vendor id: its TPU chips, and its gVNIC network card, which is no TPU.
GOOGLE_PCI_VENDOR = "0x1ae0"
#: (device id, subsystem id or None for any) of Google's TPU chips -> their generation, by the
#: accelerator-type prefix ``data/hosted.yaml`` names it by. From ``tpu-info``'s
#: ``TpuChip.from_pci_device_id``: v2 and v3 share a device id and differ in the subsystem.
TPU_PCI_CHIPS: Mapping[tuple[str, Optional[str]], str] = {
    ("0x0027", "0x004e"): "v2",
    ("0x0027", "0x004f"): "v3",
    ("0x005e", None): "v4",
    ("0x0063", None): "v5litepod",
    ("0x0062", None): "v5p",
    ("0x006f", None): "v6e",
    ("0x0076", None): "tpu7x",
}


def probe_hosted(env: Mapping[str, str], root: Path = Path("/")) -> HostedFacts:
    """The hosted image or TPU VM ``env`` and the files under ``root`` show; empty if none."""
    markers = [f"env:{var}" for _name, var in ENV_MARKERS if env.get(var)]
    markers += [f"path:/{rel}" for _name, rel in PATH_MARKERS if (root / rel).exists()]
    chip = parse_tpu_chip(read_google_pci_ids(root))
    markers += [f"pci:{GOOGLE_PCI_VENDOR}:{chip[1]}"] if chip is not None else []
    tpu_env = chip is not None or any(env.get(var) for name, var in ENV_MARKERS if name == "tpu-vm")
    patterns = (ACCEL_GLOB, VFIO_GLOB) if tpu_env else (ACCEL_GLOB,)
    devices = tuple(
        "/" + p.relative_to(root).as_posix()
        for pattern in patterns
        for p in sorted(root.glob(pattern))
    )
    markers += [f"dev:{d}" for d in devices]
    name = _image(env, root, tpu_env or bool(devices))
    return HostedFacts(
        name=name,
        markers=tuple(markers),
        image_version=None if name is None else _version(name, env, root),
        tpu_type=env.get("TPU_ACCELERATOR_TYPE") or (chip[0] if chip is not None else None),
        tpu_devices=devices,
    )


def read_google_pci_ids(root: Path) -> list[tuple[str, str, str]]:
    """``(vendor, device, subsystem_device)`` of each PCI device of Google's vendor id."""
    try:
        folders = sorted((root / PCI_DEVICES).iterdir())
    except OSError:
        return []
    found = []
    for folder in folders:
        try:
            vendor = (folder / "vendor").read_text(encoding="ascii").strip().lower()
            if vendor != GOOGLE_PCI_VENDOR:
                continue
            device, subsystem = (
                (folder / name).read_text(encoding="ascii").strip().lower()
                for name in ("device", "subsystem_device")
            )
        except (OSError, UnicodeDecodeError):
            continue
        found.append((vendor, device, subsystem))
    return found


def parse_tpu_chip(ids: list[tuple[str, str, str]]) -> Optional[tuple[str, str]]:
    """The generation (``v5litepod``) and device id of the first TPU chip among PCI ids."""
    for vendor, device, subsystem in ids:
        if vendor != GOOGLE_PCI_VENDOR:
            continue
        generation = TPU_PCI_CHIPS.get((device, subsystem)) or TPU_PCI_CHIPS.get((device, None))
        if generation is not None:
            return generation, device
    return None


def _image(env: Mapping[str, str], root: Path, tpu: bool) -> Optional[str]:
    """The first image whose marker is present; ``tpu-vm`` for TPU markers alone."""
    for name, var in ENV_MARKERS:
        if env.get(var) and name != "tpu-vm":
            return name
    for name, rel in PATH_MARKERS:
        if (root / rel).exists():
            return name
    return "tpu-vm" if tpu else None


def _version(name: str, env: Mapping[str, str], root: Path) -> Optional[str]:
    """The image's version where it names one."""
    kind, where = VERSION_SOURCES.get(name, ("", ""))
    if kind == "env":
        return env.get(where) or None
    if kind == "file":
        try:
            with (root / where).open(encoding="utf-8", errors="replace") as fh:
                return fh.readline(200).strip() or None
        except OSError:
            return None
    return None
