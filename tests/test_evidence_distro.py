"""The Linux distribution a log shows (tfdoctor.evidence.distro): os-release's lines,
``lsb_release -a``'s and ``hostnamectl``'s rows and the issue form's answer, in the words each
program prints; nothing read from words that do not name one."""

from __future__ import annotations

from typing import Optional

import pytest

from tfdoctor.evidence.distro import alpine_image, read_distro

_MINT_OS_RELEASE = """$ cat /etc/os-release
NAME="Linux Mint"
VERSION="21.2 (Victoria)"
ID=linuxmint
ID_LIKE="ubuntu debian"
PRETTY_NAME="Linux Mint 21.2"
VERSION_ID="21.2"
"""

_LSB_RELEASE = """$ lsb_release -a
No LSB modules are available.
Distributor ID:\tUbuntu
Description:\tUbuntu 22.04.4 LTS
Release:\t22.04
Codename:\tjammy
"""

_HOSTNAMECTL = """$ hostnamectl
 Static hostname: gpu-box
       Icon name: computer-desktop
        Chassis: desktop
Operating System: Rocky Linux 9.3 (Blue Onyx)
          Kernel: Linux 5.14.0-362.8.1.el9_3.x86_64
    Architecture: x86-64
"""


@pytest.mark.parametrize(
    ("text", "ids", "source"),
    [
        pytest.param(_MINT_OS_RELEASE, ("linuxmint", "ubuntu", "debian"), "os-release", id="mint"),
        pytest.param(
            'PRETTY_NAME="Fedora Linux 39 (Workstation Edition)"\nID=fedora\nVERSION_ID=39\n',
            ("fedora",),
            "os-release",
            id="fedora",
        ),
        pytest.param(_LSB_RELEASE, ("ubuntu", "debian"), "lsb_release", id="lsb_release"),
        pytest.param(
            _HOSTNAMECTL, ("rocky", "rhel", "centos", "fedora"), "hostnamectl", id="hostnamectl"
        ),
    ],
)
def test_the_distribution_a_program_printed(text: str, ids: tuple[str, ...], source: str) -> None:
    shown = read_distro(text)
    assert shown is not None and (shown.ids, shown.source) == (ids, source)


@pytest.mark.parametrize(
    ("said", "ids"),
    [
        pytest.param("Linux Ubuntu 20.04", ("ubuntu", "debian"), id="ubuntu"),
        pytest.param("CentOS 7", ("centos", "rhel", "fedora"), id="centos"),
        pytest.param("Ubuntu 22.04 in a Docker container", None, id="a-container-is-the-guest"),
        pytest.param("Linux Ubuntu 22.04 (Dockerized)", None, id="a-dockerized-guest"),
        pytest.param("Windows 10", None, id="windows"),
        pytest.param("Linux", None, id="no-distribution"),
    ],
)
def test_the_issue_forms_answer(said: str, ids: Optional[tuple[str, ...]]) -> None:
    shown = read_distro("", said)
    assert (shown.ids if shown is not None else None) == ids


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("ID=1000\nexport ID=ubuntu\n", id="a-shell-variable"),
        # env's output: WSL's NAME is the Windows host's name, a job's ID and NAME its own;
        # none of os-release's own fields (PRETTY_NAME, ID_LIKE, VERSION_ID) beside them.
        pytest.param("NAME=DESKTOP-4F2K9\nID=1000\nUSER=me\n", id="env-in-wsl"),
        pytest.param("  NAME=train-job\n  ID=job42\n", id="a-jobs-variables"),
        pytest.param("Description: an Ubuntu image for training\n", id="a-description-alone"),
        pytest.param("uname -r\n5.15.0-91-generic\n", id="a-kernel-string"),
        pytest.param("Operating System: Windows 11 Pro\n", id="another-system"),
    ],
)
def test_words_that_name_no_distribution(text: str) -> None:
    assert read_distro(text) is None


def test_an_os_release_without_its_pretty_name() -> None:
    """NAME, ID and VERSION_ID alone (os-release(5): PRETTY_NAME may be left out) still name
    the distribution, by its NAME."""
    shown = read_distro('NAME="Debian GNU/Linux"\nVERSION_ID="12"\nID=debian\n')
    assert shown is not None and (shown.ids, shown.name) == (("debian",), "Debian GNU/Linux")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("FROM alpine:3.19\nRUN apk add python3\n", "alpine:3.19"),
        ("FROM --platform=linux/amd64 python:3.11-alpine\n", "python:3.11-alpine"),
        ("$ docker run -it --rm -v $PWD:/w python:3.10-alpine3.18 sh\n", "python:3.10-alpine3.18"),
        ("podman run --rm docker.io/library/alpine sh\n", "docker.io/library/alpine"),
        ("FROM python:3.11-alpine AS build\nFROM python:3.11-slim\n", None),
        ("docker run --rm python:3.11-alpine true\ndocker run --rm ubuntu:22.04 true\n", None),
        ("an alpine lake\n", None),
        ("FROM python:3.11-slim\n# was alpine\n", None),
        (
            "$ docker run --name alpine --gpus all -it nvcr.io/nvidia/tensorflow:24.01-tf2-py3\n",
            None,
        ),
        ("$ docker run --rm ubuntu:22.04 ls /alpine\n", None),
        ("PS C:\\> docker run --rm -v myvol:/data alpine ls /data\n", "alpine"),
    ],
    ids=[
        "alpine-repository",
        "platform-option",
        "docker-run-variant",
        "podman-full-name",
        "multi-stage-glibc",
        "second-container",
        "prose",
        "comment",
        "container-named-alpine",
        "alpine-argument",
        "image-after-valued-options",
    ],
)
def test_alpine_image_is_read_only_where_every_image_shown_is_one(
    text: str, expected: Optional[str]
) -> None:
    assert alpine_image(text) == expected
