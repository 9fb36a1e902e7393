"""Hosted notebook images and Cloud TPU generations, read from ``data/hosted.yaml``.

What each image ships of TensorFlow (by runtime release, newest first), how its users restart
the kernel and change the runtime, which TPU generations TensorFlow runs on, and which
instance families of a hosted platform (SageMaker's) have an NVIDIA GPU. Validated
once per process (and cached across processes by its bytes); a new image release is a data
change. Imports nothing from the package but the YAML reader and the record base.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from tfdoctor.records import Record, record
from tfdoctor.yamldoc import SOURCE_ID, DataSource, NodeReader, compose, load_cached

if TYPE_CHECKING:
    from yaml import Node

#: The table shipped inside the package.
HOSTED_DATA = Path(__file__).parent / "data" / "hosted.yaml"
HOSTED_DATA_VERSION = 1

#: ``tensorflow==2.20.0``: a distribution pinned to one release.
_PIN = re.compile(r"^(tensorflow|tensorflow-cpu|tensorflow-tpu)==(\d+\.\d+\.\d+)$")
_PYTHON = re.compile(r"^3\.\d+$")
_RELEASE = re.compile(r"^\d+\.\d+\.\d+$")
#: The letters of an instance family before its generation (``g`` of ``g4dn``, ``inf`` of
#: ``inf1``).
_FAMILY_LETTERS = re.compile(r"^[a-z]+")


class HostedDataError(ValueError):
    """A hosted-image data file that cannot be used: ``FILE:LINE: FIELD: what is wrong``."""


@record
class ImageRelease(Record):
    """One runtime release of a hosted image and the TensorFlow it ships."""

    release: str
    python: str
    #: ``tensorflow==2.20.0``; None: the image ships no TensorFlow.
    tensorflow: Optional[str]
    #: The CUDA and cuDNN wheels of its GPU variant, in words; None: not recorded.
    cuda: Optional[str]
    #: What its TPU variant ships instead (``tensorflow-cpu==2.20.0``); None: no TensorFlow.
    tpu_tensorflow: Optional[str]
    sources: tuple[str, ...]

    def runs(self, python: str) -> bool:
        """Whether this release's Python is ``python``'s ``X.Y``."""
        return ".".join(python.split(".")[:2]) == self.python

    @property
    def tf_version(self) -> Optional[str]:
        """The shipped TensorFlow's version (``2.20.0``)."""
        return self.tensorflow.split("==", 1)[1] if self.tensorflow else None


@record
class HostedImage(Record):
    """A hosted notebook image: its name in the facts, title, menus and releases."""

    name: str
    title: str
    #: Where its users restart the kernel, and change the runtime version.
    restart: str
    change_runtime: str
    #: Where a notebook gets a GPU (the runtime's accelerator setting).
    accelerator: str
    sources: tuple[str, ...]
    releases: tuple[ImageRelease, ...] = ()

    @property
    def latest(self) -> Optional[ImageRelease]:
        """The release a fresh runtime gets."""
        return self.releases[0] if self.releases else None

    def shipping(self, version: str, python: Optional[str] = None) -> Optional[ImageRelease]:
        """The newest release that ships TensorFlow ``version`` (on Python ``python``'s
        ``X.Y`` where given)."""
        for release in self.releases:
            if release.tf_version == version and (python is None or release.runs(python)):
                return release
        return None

    def running(self, python: Optional[str]) -> Optional[ImageRelease]:
        """The release this runtime most likely is: the newest on ``python``'s ``X.Y`` (a
        runtime version's Python tells it apart), else the latest."""
        found = next((r for r in self.releases if python and r.runs(python)), None)
        return found or self.latest


@record
class TpuGeneration(Record):
    """A TPU generation by its accelerator type's prefix, whether TensorFlow runs on it, and
    the oldest TensorFlow release that does where the source states one (``tensorflow_min``)."""

    prefix: str
    generation: str
    tensorflow: bool
    source: str
    tensorflow_min: Optional[str] = None


@record
class InstanceFamily(Record):
    """A hosted platform's instance family by its type's prefix (``ml.g``), and whether its
    instances have an NVIDIA GPU."""

    prefix: str
    gpu: bool
    sources: tuple[str, ...]


@record
class HostedData(Record):
    """The table: sources, images, TPU generations and instance families."""

    path: str
    sources: Mapping[str, DataSource]
    images: tuple[HostedImage, ...]
    tpu_generations: tuple[TpuGeneration, ...]
    instance_families: tuple[InstanceFamily, ...] = ()

    def image(self, name: Optional[str]) -> Optional[HostedImage]:
        """The image called ``name`` (as the probe names it)."""
        return next((i for i in self.images if i.name == name), None)

    def tpu(self, accelerator_type: Optional[str]) -> Optional[TpuGeneration]:
        """The generation of an accelerator type (``v6e-8``: the part before the chip count)."""
        kind = (accelerator_type or "").lower().split("-", 1)[0]
        return next((g for g in self.tpu_generations if g.prefix == kind), None)

    def instance_family(self, instance_type: Optional[str]) -> Optional[InstanceFamily]:
        """The family of an instance type as the table lists it (``ml.g5.xlarge``: ``ml.g``,
        the letters before the family's generation digit), or None."""
        parts = (instance_type or "").split(".")
        if len(parts) < 3:
            return None
        letters = _FAMILY_LETTERS.match(parts[1])
        family = f"{parts[0]}.{letters.group(0)}" if letters else None
        return next((f for f in self.instance_families if f.prefix == family), None)

    def url(self, source: str) -> str:
        """A source id's URL."""
        return self.sources[source].url


def parse_hosted_data(text: str, path: str = "<hosted data>") -> HostedData:
    """Validate hosted-image YAML ``text`` (``path`` names it in errors)."""
    root = compose(text, path, "hosted image data", HostedDataError)
    reader = NodeReader(path, HostedDataError)
    top = reader.mapping(
        root,
        "hosted",
        ("schema_version", "sources", "images", "tpu_generations"),
        ("instance_families",),
    )
    reader.schema_version(top["schema_version"], HOSTED_DATA_VERSION)
    sources = reader.sources(top["sources"], SOURCE_ID, DataSource)
    images = tuple(
        _image(reader, where, name, fields, sources)
        for where, name, fields in reader.keyed_rows(
            top["images"],
            "images",
            "name",
            ("title", "restart", "change_runtime", "accelerator", "source", "releases"),
        )
    )
    generations = tuple(
        TpuGeneration(
            prefix,
            reader.required_string(fields["generation"], f"{where}.generation"),
            reader.boolean(fields["tensorflow"], f"{where}.tensorflow"),
            reader.source_ids(fields["source"], f"{where}.source", sources)[0],
            reader.string(
                fields["tensorflow_min"],
                f"{where}.tensorflow_min",
                _RELEASE,
                "X.Y.Z release",
                nullable=True,
            )
            if "tensorflow_min" in fields
            else None,
        )
        for where, prefix, fields in reader.keyed_rows(
            top["tpu_generations"],
            "tpu_generations",
            "prefix",
            ("generation", "tensorflow", "source"),
            ("tensorflow_min",),
        )
    )
    families = tuple(
        InstanceFamily(
            prefix,
            reader.boolean(fields["gpu"], f"{where}.gpu"),
            reader.source_ids(fields["source"], f"{where}.source", sources),
        )
        for where, prefix, fields in (
            reader.keyed_rows(
                top["instance_families"], "instance_families", "prefix", ("gpu", "source")
            )
            if "instance_families" in top
            else ()
        )
    )
    return HostedData(path, sources, images, generations, families)


def _image(
    reader: NodeReader,
    where: str,
    name: str,
    fields: Mapping[str, Node],
    sources: Mapping[str, DataSource],
) -> HostedImage:
    releases = tuple(
        ImageRelease(
            release,
            reader.required_string(row["python"], f"{at}.python", _PYTHON, "Python version"),
            reader.string(row["tensorflow"], f"{at}.tensorflow", _PIN, "pin", nullable=True),
            reader.string(row["cuda"], f"{at}.cuda", nullable=True),
            reader.string(
                row["tpu_tensorflow"], f"{at}.tpu_tensorflow", _PIN, "pin", nullable=True
            ),
            reader.source_ids(row["source"], f"{at}.source", sources),
        )
        for at, release, row in reader.keyed_rows(
            fields["releases"],
            f"{where}.releases",
            "release",
            ("python", "tensorflow", "cuda", "tpu_tensorflow", "source"),
        )
    )
    return HostedImage(
        name=name,
        title=reader.required_string(fields["title"], f"{where}.title"),
        restart=reader.required_string(fields["restart"], f"{where}.restart"),
        change_runtime=reader.required_string(fields["change_runtime"], f"{where}.change_runtime"),
        accelerator=reader.required_string(fields["accelerator"], f"{where}.accelerator"),
        sources=reader.source_ids(fields["source"], f"{where}.source", sources),
        releases=releases,
    )


@functools.cache
def hosted_data(path: Optional[str] = None) -> HostedData:
    """The hosted-image table (the shipped file unless ``path``), read once per process."""
    return load_cached(
        path or str(HOSTED_DATA), "hosted-data", HostedDataError, parse_hosted_data, HostedData
    )
