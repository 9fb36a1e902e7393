"""dyld's own list of the paths it tried for a library it did not load."""

from __future__ import annotations

from typing import Optional

import pytest

from tfdoctor.evidence.macos import (
    dyld_refused,
    dyld_tried,
    macos_release,
    prompt_system,
    uname_darwin,
)


def test_the_paths_dyld_tried_are_read_in_its_order_once_each() -> None:
    text = (
        "OSError: dlopen(/Users/kim/env/lib/python3.12/site-packages/xgboost/lib/"
        "libxgboost.dylib, 0x0006): Library not loaded: @rpath/libomp.dylib\n"
        "  Reason: tried: '/opt/homebrew/opt/libomp/lib/libomp.dylib' (no such file), "
        "'/System/Volumes/Preboot/Cryptexes/OS/opt/homebrew/opt/libomp/lib/libomp.dylib' "
        "(no such file), '/opt/homebrew/opt/libomp/lib/libomp.dylib' (no such file)\n"
    )
    assert dyld_tried(text) == (
        "/opt/homebrew/opt/libomp/lib/libomp.dylib",
        "/System/Volumes/Preboot/Cryptexes/OS/opt/homebrew/opt/libomp/lib/libomp.dylib",
    )


def test_no_tried_list_reads_nothing() -> None:
    assert dyld_tried("Library not loaded: @rpath/libomp.dylib\n") == ()


def test_the_paths_dyld_found_and_refused_are_those_not_absent() -> None:
    site = "/Users/kim/env/lib/python3.11/site-packages/tensorflow"
    text = (
        f"ImportError: dlopen({site}/python/_pywrap_tensorflow_internal.so, 0x0002): Library "
        "not loaded: @rpath/libtensorflow_framework.2.dylib\n"
        f"  Reason: tried: '{site}/python/libtensorflow_framework.2.dylib' (no such file), "
        f"'{site}/libtensorflow_framework.2.dylib' (code signature in <2B> "
        f"'{site}/libtensorflow_framework.2.dylib' not valid for use in process: library load "
        "disallowed by system policy), '/usr/lib/libtensorflow_framework.2.dylib' (no such "
        "file, not in dyld cache)\n"
    )
    assert dyld_refused(text) == (f"{site}/libtensorflow_framework.2.dylib",)
    assert len(dyld_tried(text)) == 3


@pytest.mark.parametrize(
    ("text", "line"),
    [
        pytest.param("$ uname -s\nDarwin\n", "Darwin", id="uname-s"),
        pytest.param("$ uname\nDarwin\n", "Darwin", id="uname"),
        pytest.param("$ uname -sr\nDarwin 23.1.0\n", "Darwin 23.1.0", id="uname-sr"),
        pytest.param(
            "$ uname -a\nDarwin mbp.local 19.6.0 Darwin Kernel Version 19.6.0: Thu Oct 29 "
            "22:56:45 PDT 2020; root:xnu-6153.141.2.2~1/RELEASE_X86_64 x86_64\n",
            "Darwin mbp.local 19.6.0 Darwin Kernel Version 19.6.0: Thu Oct 29 22:56:45 PDT 20",
            id="uname-a",
        ),
        pytest.param("Darwin\n", None, id="a-word-alone"),
        pytest.param("see Charles Darwin 1.2.3\n", None, id="a-name-in-prose"),
    ],
)
def test_unames_darwin_is_read(text: str, line: Optional[str]) -> None:
    assert uname_darwin(text) == line


_MAC = "macos"
_LINUX = "linux"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("ana@Anas-MacBook-Pro ~ % pip list\n", _MAC, id="zsh-mac"),
        pytest.param("(tf) ana@box src % python a.py\n", _MAC, id="zsh-any-host"),
        # grml's zsh prompt (Arch's install medium, grml-zsh-config) shows the whole path.
        pytest.param("ana@box ~/src/tf % python a.py\n", None, id="zsh-whole-path-grml"),
        pytest.param("root@archiso /var/tmp # python a.py\n", None, id="grml-root"),
        pytest.param("ana@box:/Users/ana/src$ python a.py\n", _MAC, id="users-home"),
        pytest.param("ana@Anas-iMac:~$ python a.py\n", _MAC, id="imac-host-bash"),
        pytest.param("ana@Mac-mini-2.local:~ $ ls\n", _MAC, id="mini-host"),
        pytest.param("ana@box:~/src$ python a.py\n", _LINUX, id="debian-bash"),
        pytest.param("ana@ana-MacBookPro11-1:~$ ls\n", _LINUX, id="model-joined-not-macos-name"),
        pytest.param("ana@box:/home/ana/Users/x$ ls\n", _LINUX, id="users-not-at-root"),
        pytest.param("root@6b9e3874a772:/workspace# python a.py\n", None, id="root-hash"),
        pytest.param("box% python a.py\n", None, id="zsh-default-without-user"),
        pytest.param("$ python a.py\n", None, id="dollar-alone"),
        pytest.param(
            "ana@Anas-MacBook-Pro ~ % ssh box\nana@box:~$ python a.py\n", None, id="both-shown"
        ),
    ],
)
def test_a_prompt_shows_its_system_by_its_own_parts(text: str, expected: Optional[str]) -> None:
    shown = prompt_system(text)
    assert (shown[0] if shown is not None else None) == expected


@pytest.mark.parametrize(
    ("text", "release"),
    [
        (
            "$ sw_vers\nProductName:\tMac OS X\nProductVersion:\t10.15.5\nBuildVersion:\t19F101\n",
            "10.15.5",
        ),
        ("% sw_vers -productVersion\n10.13.6\n", "10.13.6"),
        # A release named in prose, not sw_vers's answer: not read.
        ("I am on macOS 10.15.5 and pip refuses the wheel\n", None),
        # The answer must be on the line right after the command.
        ("$ sw_vers -productVersion\n\n10.13.6\n", None),
    ],
    ids=["sw_vers", "product-version-flag", "prose", "not-the-next-line"],
)
def test_the_macos_release_is_read_from_sw_vers_only(text: str, release: Optional[str]) -> None:
    assert macos_release(text) == release
