"""A failed import's own words (its exception and stderr, kept in the facts) are read by the
same evidence layer and causes as ``explain`` reads a log: ``check`` and ``explain`` name the
same cause and fix for the same text, and the exception outranks what the stderr only warns."""

from __future__ import annotations

import pytest

from tests import factories as f
from tfdoctor.checks import run_checks, select_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.explain import explain
from tfdoctor.explain.reader import split_text
from tfdoctor.facts import Facts
from tfdoctor.findings import Finding, Severity
from tfdoctor.signatures import load_signatures

#: TensorFlow 2.x's loader warning on a machine without CUDA's runtime (dso_loader.cc).
CUDART_WARNING = (
    "2024-03-01 10:00:00.000000: W tensorflow/stream_executor/platform/default/"
    "dso_loader.cc:64] Could not load dynamic library 'libcudart.so.11.0'; dlerror: "
    "libcudart.so.11.0: cannot open shared object file: No such file or directory"
)
#: NumPy 2's message for an extension built against NumPy 1 (numpy/core/_multiarray_umath.py).
NUMPY_ABI = (
    "A module that was compiled using NumPy 1.x cannot be run in\n"
    "NumPy 2.0.2 as it may crash. To support both 1.x and 2.x\n"
    "versions of NumPy, modules must be compiled with NumPy 2.0.\n"
    "AttributeError: _ARRAY_API not found"
)


def failed_import(version: str, error_type: str, message: str, stderr: str = "") -> Facts:
    """A machine whose ``import tensorflow`` (``version``) failed with these words."""
    return f.facts(
        packages=(f.pkg("tensorflow", version, top_level=("tensorflow",)),),
        tensorflow=f.tensorflow(
            status="import-error",
            version=version,
            error_type=error_type,
            error_message=message,
            stderr_tail=stderr,
        ),
    )


def check_import(facts: Facts) -> Finding:
    (finding,) = run_checks(
        CheckContext(facts, f.FIXTURE_MATRIX), select_checks(["tensorflow.import"])
    )
    return finding


def explained(facts: Facts) -> list[Finding]:
    """``explain``'s error findings for the same words, as a log of the probe's statement."""
    tf = facts.tensorflow
    assert tf is not None
    text = f">>> import tensorflow\n{tf.error_type}: {tf.error_message}\n{tf.stderr_tail}"
    report = explain([split_text(text)], load_signatures(), f.FIXTURE_MATRIX, facts)
    return [x for x in report.findings if x.severity is Severity.ERROR and x.cause]


SAME_WORDS = [
    pytest.param(
        "2.15.0",
        "TypeError",
        "Descriptors cannot be created directly.\nIf this call came from a _pb2.py file, your "
        "generated code is out of date and must be regenerated with protoc >= 3.19.0.",
        "protobuf-incompatible",
        id="protobuf-newer-than-generated-code",
    ),
    pytest.param(
        "2.15.0",
        "ImportError",
        "cannot import name 'builder' from 'google.protobuf.internal' "
        "(/opt/venv/lib/python3.11/site-packages/google/protobuf/internal/__init__.py)",
        "protobuf-incompatible",
        id="protobuf-older-than-generated-code",
    ),
    pytest.param(
        "2.15.0",
        "ImportError",
        "/lib64/libc.so.6: version `GLIBC_2.28' not found (required by /opt/venv/lib/"
        "python3.11/site-packages/tensorflow/python/_pywrap_tensorflow_internal.so)",
        "glibc-too-old",
        id="glibc",
    ),
    pytest.param(
        "2.15.0",
        "ImportError",
        "DLL load failed while importing _pywrap_tensorflow_internal: The specified module "
        "could not be found.",
        "msvc-runtime-missing",
        id="dll-load-failed",
    ),
    pytest.param(
        "2.15.0",
        "ImportError",
        "libgomp.so.1: cannot open shared object file: No such file or directory",
        "native-library-unresolved",
        id="a-system-library",
    ),
    pytest.param(
        "2.3.3",
        "ImportError",
        "libamdhip64.so.3: cannot open shared object file: No such file or directory",
        "rocm-version-mismatch",
        id="hip-runtime-of-another-rocm-release",
    ),
]


@pytest.mark.parametrize(("version", "error_type", "message", "cause"), SAME_WORDS)
def test_check_and_explain_name_the_same_cause_and_fix(
    version: str, error_type: str, message: str, cause: str
) -> None:
    facts = failed_import(version, error_type, message)
    finding = check_import(facts)
    assert finding.severity is Severity.ERROR
    assert finding.cause == cause
    same = [x for x in explained(facts) if x.cause == cause]
    assert same, "explain names another cause for the same words"
    assert finding.fix == same[0].fix


def test_the_exception_outranks_a_library_the_stderr_only_warns_about() -> None:
    # The import stopped at NumPy's ABI error; the CUDA runtime it could not open is the
    # warning every 2.x import prints on a machine without CUDA, not why it failed.
    facts = failed_import(
        "2.10.0",
        "ImportError",
        "numpy.core.multiarray failed to import",
        f"{CUDART_WARNING}\n{NUMPY_ABI}",
    )
    assert check_import(facts).cause == "numpy-abi"


def test_a_generic_exception_is_read_with_the_stderr() -> None:
    facts = failed_import(
        "2.10.0",
        "SystemError",
        "initialization of _pywrap_tensorflow_internal raised unreported exception",
        f"{CUDART_WARNING}\n{NUMPY_ABI}\nImportError: numpy.core.multiarray failed to import",
    )
    assert check_import(facts).cause == "numpy-abi"


def test_a_runtime_too_old_for_a_range_capped_below_it_gets_no_install_command() -> None:
    # TensorFlow 2.10 declares protobuf<3.20, and `builder` came with 3.20: no protobuf serves
    # both, so the fix says so instead of installing TensorFlow's range again.
    facts = failed_import(
        "2.10.0",
        "ImportError",
        "cannot import name 'builder' from 'google.protobuf.internal' "
        "(/opt/venv/lib/python3.9/site-packages/google/protobuf/internal/__init__.py)",
    )
    finding = check_import(facts)
    assert finding.cause == "protobuf-incompatible"
    assert finding.fix is not None
    assert "no protobuf serves both" in finding.fix.text
    assert not any("pip install" in c for c in finding.fix.commands)


def test_an_unknown_exception_stays_unknown() -> None:
    facts = failed_import("2.15.0", "RuntimeError", "something nobody has seen before")
    finding = check_import(facts)
    assert finding.cause == "import-failed-unknown"
    assert finding.severity is Severity.ERROR


#: protobuf's C++ runtime aborting TensorFlow's import (the child dies of SIGABRT), in its own
#: words on stderr: its version check, and its descriptor database refusing a second copy.
PROTOBUF_ABORTS = [
    pytest.param(
        "[libprotobuf FATAL google/protobuf/stubs/common.cc:87] This program requires version "
        "3.21.0 of the Protocol Buffer runtime library, but the installed version is 3.19.6.  "
        "Please update your library.\n",
        "imported before",
        id="version-check",
    ),
    pytest.param(
        "[libprotobuf ERROR external/com_google_protobuf/src/google/protobuf/"
        "descriptor_database.cc:641] File already exists in database: "
        "tensorflow/core/framework/tensor.proto\n"
        "[libprotobuf FATAL external/com_google_protobuf/src/google/protobuf/descriptor.cc:1371] "
        "CHECK failed: GeneratedDatabase()->Add(encoded_file_descriptor, size):\n",
        # The copies are compiled into the libraries: the release pairing, with the
        # TensorFlow the facts show.
        "TensorFlow 2.15.0 here",
        id="descriptor-database",
    ),
]


@pytest.mark.parametrize(("stderr", "says"), PROTOBUF_ABORTS)
def test_an_import_aborted_by_protobufs_cpp_runtime_is_read_as_explain_reads_it(
    stderr: str, says: str
) -> None:
    abort = "terminate called after throwing an instance of 'google::protobuf::FatalException'\n"
    facts = f.facts(
        packages=(f.pkg("tensorflow", "2.15.0", top_level=("tensorflow",)),),
        tensorflow=f.tensorflow(status="signal", version="2.15.0", stderr_tail=stderr + abort),
    )
    finding = check_import(facts)
    assert finding.cause == "protobuf-incompatible"
    assert finding.fix is not None and says in finding.fix.text
    # One cause, one fix: explain's for the same words; no protobuf from pip for these.
    same = [x for x in explained(facts) if x.cause == "protobuf-incompatible"]
    assert same and finding.fix == same[0].fix
    assert not any("protobuf" in c and "install" in c for c in finding.fix.commands)
