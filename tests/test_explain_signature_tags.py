"""Signature tags: each tag the code reads decides a reading by itself. A line of each family is
explained with its signature renamed (an id no code names), once with the tag and once
without: the findings must differ, so the behaviour follows the tag and not the id."""

from __future__ import annotations

import pytest

from tests.explaining import SIGNATURES, explained, renamed
from tfdoctor import signatures as sig
from tfdoctor.evidence import installer
from tfdoctor.findings import Report

_DSO = (
    "2023-01-01 10:00:00.000000: W tensorflow/stream_executor/platform/default/dso_loader.cc:64] "
)

#: pip's refusal of every TensorFlow release, after the line that says what pip could read.
_REFUSED = (
    "ERROR: Could not find a version that satisfies the requirement tensorflow==2.15.0 (from "
    "versions: none)\nERROR: No matching distribution found for tensorflow==2.15.0\n"
)

#: Tag -> (a signature carrying it, a log its line is in).
CASES: dict[str, tuple[str, str]] = {
    sig.ABI_TAG: (
        "uv-no-abi-tag-any-release",
        "Because all versions of tensorflow have no wheels with a matching Python ABI tag "
        "(e.g., `cp314`) and you require tensorflow, we can conclude that your requirements "
        "are unsatisfiable.\n",
    ),
    sig.INDEX_NOT_PYPI: (
        "pip-index-not-pypi",
        "Looking in indexes: https://nexus.example.com/repository/pypi/simple\n" + _REFUSED,
    ),
    sig.INDEX_UNREAD: (
        "pip-index-retrying",
        "WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, "
        "status=None)) after connection broken by 'ProxyError('Cannot connect to proxy.', "
        "OSError('Tunnel connection failed: 407 Proxy Authentication Required'))': "
        "/simple/tensorflow/\n" + _REFUSED,
    ),
    sig.ONE_RELEASE: (
        "uv-no-platform-tag",
        "Because tensorflow==2.17.0 has no wheels with a matching platform tag (e.g., "
        "`macosx_14_0_x86_64`) and you require tensorflow==2.17.0, we can conclude that your "
        "requirements are unsatisfiable.\n",
    ),
    sig.BARE_INIT_ERROR: (
        "cuda-runtime-init-error",
        "InternalError: cudaGetDevice() failed. Status: initialization error\n",
    ),
    sig.MODULE_KEY_REFUSED: (
        "kernel-module-key-refused",
        "$ sudo modprobe nvidia\nmodprobe: ERROR: could not insert 'nvidia': Required key not "
        "available\n",
    ),
    sig.IMAGE_CHECK: (
        "ngc-no-supported-gpu",
        "$ docker run --rm -it acme/serve:2\n"
        "ERROR: No supported GPU(s) detected to run this container\n",
    ),
    sig.NOUVEAU_HOLDS_GPU: (
        "nvrm-probe-not-called",
        "[   11.002233] NVRM: The NVIDIA probe routine was not called for 1 device(s).\n",
    ),
    sig.BAZEL_WORDS: (
        "bazel-cc-compiler-not-found",
        "Auto-Configuration Error: Cannot find gcc or CC; either correct your path or set the "
        "CC environment variable\n",
    ),
    sig.DIRECTML_WORDS: (
        "directml-no-adapter",
        "DirectML device enumeration: found 0 compatible adapters.\n",
    ),
    sig.EMULATOR: (
        "qemu-sigill",
        "qemu: uncaught target signal 4 (Illegal instruction) - core dumped\n",
    ),
    sig.GOES_ON: (
        "hdf5-version-check-disabled",
        "Warning! ***HDF5 library version mismatched error***\n"
        "The HDF5 header files used to compile this application do not match\n"
        "the version used by the HDF5 library to which this application is linked.\n"
        "'HDF5_DISABLE_VERSION_CHECK' environment variable is set to 1, application will\n"
        "continue at your own risk.\n"
        "Headers are 1.10.4, library is 1.12.2\n",
    ),
    sig.FORKED: (
        "forked-celery-worker",
        'Process ForkPoolWorker-1:\n  File "/usr/lib/python3.8/multiprocessing/pool.py", '
        "line 125, in worker\n"
        "InternalError: cudaGetDevice() failed. Status: initialization error\n",
    ),
    sig.DEEPMD_BUILD: (
        "deepmd-tf-runtime-inconsistent",
        "RuntimeError: This deepmd-kit package is inconsitent with TensorFlow Runtime, thus an "
        "error is raised when loading deepmd_op.\n",
    ),
    sig.DESCRIPTOR_CLASH: (
        "protobuf-cpp-file-exists",
        "[libprotobuf ERROR google/protobuf/descriptor_database.cc:58] File already exists in "
        "database: tensorflow/core/framework/tensor.proto\n",
    ),
    sig.GENCODE_CHECK: (
        "protobuf-gencode-newer",
        "gencode 5.28.1 runtime 5.27.2. Runtime version cannot be older than the linked "
        "gencode version.\n",
    ),
    sig.KFD_NODE: (
        "rocm-kfd-permission-denied",
        "Unable to open /dev/kfd read-write: Permission denied\n",
    ),
    sig.PROFILING_COUNTERS: (
        "cupti-insufficient-privileges",
        "2020-06-25 20:30:05.997330: E tensorflow/core/profiler/internal/gpu/cupti_tracer.cc:"
        "1307] function cupti_interface_->Subscribe( &subscriber_, (CUpti_CallbackFunc)"
        "ApiCallback, this)failed with error CUPTI_ERROR_INSUFFICIENT_PRIVILEGES\n",
    ),
    sig.LOADER_LINE: (
        "dlopen-cuda-library",
        f"{_DSO}Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: "
        "cannot open shared object file: No such file or directory\n"
        "2023-01-01 10:00:00.000001: I tensorflow/stream_executor/cuda/cudart_stub.cc:29] "
        "Ignore above cudart dlerror if you do not have a GPU set up on your machine.\n",
    ),
    sig.MACOS_WORDS: (
        "python-ext-xcrun-missing",
        "xcrun: error: invalid active developer path (/Library/Developer/CommandLineTools), "
        "missing xcrun at: /Library/Developer/CommandLineTools/usr/bin/xcrun\n",
    ),
    sig.NUITKA_WORDS: (
        "nuitka-anti-bloat-condition",
        "FATAL: anti-bloat: Error, condition 'standalone' for module 'tensorflow' did not "
        "evaluate to boolean result.\n",
    ),
    installer.POETRY_WORDS: (
        "poetry-no-candidates",
        "RuntimeError\n\n  Unable to find installation candidates for "
        "tensorflow-io-gcs-filesystem (0.37.1)\n",
    ),
    installer.PIPTOOLS_WORDS: (
        "piptools-tf-companion-range-unmatched",
        "Could not find a version that matches tensorflow-estimator<2.4.0,>=2.3.0-rc0\n",
    ),
    sig.PROTO3_OPTIONAL: (
        "protoc-proto3-optional-refused",
        "api/settings.proto: This file contains proto3 optional fields, but "
        "--experimental_allow_proto3_optional was not set.\n",
    ),
    sig.REASON_CUT: ("windows-dll-load-failed-reason-cut", "ImportError: DLL load failed\n"),
    sig.REMOVED_API: (
        "starlark-removed-api",
        "ERROR: /src/tools/defs.bzl:7:15: The value 'REPOSITORY_NAME' has been removed in favor "
        "of 'repository_name()', please use the latter.\n",
    ),
    sig.ROCM_WORDS: (
        "rocm-no-code-object",
        "hipErrorNoBinaryForGpu: Unable to find code object for all current devices!\n",
    ),
    sig.SETUPTOOLS_WORDS: (
        "python-ext-msvc-missing",
        'error: Microsoft Visual C++ 14.0 is required. Get it with "Build Tools for Visual '
        'Studio": https://visualstudio.microsoft.com/downloads/\n',
    ),
    sig.PROCESS_ENDED: (
        "windows-access-violation",
        # tensorflow-addons' notice, an epoch to its end, then the process's end: the epoch
        # does not make the notice a note.
        "UserWarning: Tensorflow Addons supports using Python ops for all Tensorflow versions "
        "above or equal to 2.5.0 and strictly below 2.8.0 (nightly versions are not "
        "supported). \n The versions of TensorFlow you are currently using is 2.9.1 and is "
        "not supported. \nEpoch 1/2\n938/938 [==============================] - 6s 6ms/step "
        "- loss: 0.3012\nEpoch 2/2\nProcess finished with exit code -1073741819 (0xC0000005)\n",
    ),
    sig.TFJS_WORDS: (
        "tfjs-unknown-op",
        "TypeError: Unknown op 'CropAndResizeV9'. File an issue at "
        "https://github.com/tensorflow/tfjs/issues so we can add it, or register a custom "
        "execution with tf.registerOp()\n",
    ),
    sig.TFLITE_WORDS: (
        "tflite-op-version-unknown",
        "ValueError: Didn't find op for builtin opcode 'RESIZE_NEAREST_NEIGHBOR' version '3'\n",
    ),
    installer.UV_WORDS: (
        "uv-no-wheel",
        "error: Distribution tensorflow-text==2.15.0 @ registry+https://pypi.org/simple can't "
        "be installed because it doesn't have a source distribution or wheel for the current "
        "platform\n",
    ),
    sig.WINDOWS_WORDS: (
        "bazel-vc-build-tools-not-found",
        "Bazel couldn't find a valid Visual C++ build tools installation on your machine.\n",
    ),
}

#: Tags that decide only beside another tag's lines: pip's words name pip where uv's or
#: Poetry's are in the log too, pip being the installer named by default.
BESIDE_OTHERS = frozenset({installer.PIP_WORDS})


def _reading(report: Report) -> list[tuple[str, str, str]]:
    """What a report says: each finding's cause, severity and fix."""
    return [
        (
            x.cause or "",
            x.severity.value,
            "\n".join((x.fix.text, *x.fix.commands)) if x.fix is not None else "",
        )
        for x in report.findings
    ]


def test_every_tag_has_a_case() -> None:
    assert set(CASES) | BESIDE_OTHERS == set(sig.TAGS)


@pytest.mark.parametrize(("tag", "sid", "text"), [(t, *c) for t, c in sorted(CASES.items())])
def test_the_tag_alone_changes_the_reading(tag: str, sid: str, text: str) -> None:
    others = tuple(t for t in SIGNATURES.by_id(sid).tags if t != tag)
    with_tag = explained(text, signatures=renamed(sid, tuple(sorted((*others, tag)))))
    without = explained(text, signatures=renamed(sid, others))
    assert _reading(with_tag) != _reading(without)
