"""The cuInit probe against a gcc-built ``libcuda.so.1``, through the real child and loader.

The stub (``tests.cstubs.CUDA_STUB_C``) returns the CUresult ``STUB_CUDA_INIT_RC`` names from
cuInit; ``LD_LIBRARY_PATH`` puts it ahead of any real driver library.
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Optional

import pytest

from tests.cstubs import build_libcuda_stub
from tfdoctor.facts import CuInitFacts
from tfdoctor.probes._run import CommandResult, child_script
from tfdoctor.probes.cuinit import parse_cuinit_doc, parse_cuinit_result, probe_cuinit

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the stub is an ELF shared library"
)


@pytest.fixture(scope="module")
def stub_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding the stub libcuda.so.1."""
    directory = tmp_path_factory.mktemp("cuda-stub")
    build_libcuda_stub(directory)
    return directory


def stub_env(lib_dir: Path, **stub: str) -> dict[str, str]:
    """The child's environment: the stub first on the loader path, its scenario variables."""
    env = {"LD_LIBRARY_PATH": str(lib_dir)}
    env.update({f"STUB_CUDA_{k}": v for k, v in stub.items()})
    return env


def system_has_libcuda() -> bool:
    """Whether this machine's loader finds a real libcuda.so.1 without help."""
    try:
        ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    return True


def test_success_reports_the_driver_cuda_and_the_devices(stub_dir: Path) -> None:
    facts = probe_cuinit(sys.executable, stub_env(stub_dir, DEVICES="3"), timeout=30.0)
    assert facts == CuInitFacts(
        status="ok",
        code=0,
        name="CUDA_SUCCESS",
        library=str((stub_dir / "libcuda.so.1").resolve()),
        driver_cuda="12.4",
        device_count=3,
    )


@pytest.mark.parametrize(
    ("code", "name"),
    [
        pytest.param(100, "CUDA_ERROR_NO_DEVICE", id="100-no-device"),
        pytest.param(999, "CUDA_ERROR_UNKNOWN", id="999-unknown-after-suspend"),
        pytest.param(304, "CUDA_ERROR_OPERATING_SYSTEM", id="304-os-call-failed"),
        pytest.param(35, "CUDA_ERROR_INSUFFICIENT_DRIVER", id="35-driver-too-old"),
        pytest.param(303, "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED", id="303-init-failed"),
        # The stub's cuGetErrorName does not name these: the child's table does, as cuda.h.
        pytest.param(101, "CUDA_ERROR_INVALID_DEVICE", id="101-invalid-device-child-table"),
        pytest.param(3, "CUDA_ERROR_NOT_INITIALIZED", id="3-not-initialized-child-table"),
        # cuGetErrorName does not know it: the child's own name for it.
        pytest.param(4242, "CUDA_ERROR_4242", id="code-the-library-cannot-name"),
    ],
)
def test_a_failing_cuinit_is_an_error_with_its_code_and_name(
    stub_dir: Path, code: int, name: str
) -> None:
    facts = probe_cuinit(sys.executable, stub_env(stub_dir, INIT_RC=str(code)), timeout=30.0)
    assert facts.status == "error"
    assert (facts.code, facts.name) == (code, name)
    assert facts.message == f"cuInit(0) returned {name} ({code})"
    # cuDriverGetVersion needs no cuInit: the supported CUDA is known even then.
    assert facts.driver_cuda == "12.4"
    assert facts.device_count is None


def test_no_library_anywhere_is_no_library(tmp_path: Path) -> None:
    if system_has_libcuda():
        pytest.skip("this machine's loader finds a real libcuda.so.1")
    facts = probe_cuinit(sys.executable, {"LD_LIBRARY_PATH": str(tmp_path)}, timeout=30.0)
    assert facts.status == "no-library"
    assert facts.library == "libcuda.so.1"
    assert facts.message is not None
    assert "libcuda.so.1" in facts.message
    assert facts.code is None


def test_a_crash_inside_cuinit_is_contained(stub_dir: Path) -> None:
    facts = probe_cuinit(sys.executable, stub_env(stub_dir, CRASH="1"), timeout=30.0)
    assert facts == CuInitFacts(
        status="crashed",
        message="the cuInit child was killed by SIGSEGV inside the driver",
    )


def test_a_hung_cuinit_times_out(stub_dir: Path) -> None:
    facts = probe_cuinit(sys.executable, stub_env(stub_dir, HANG="1"), timeout=1.0)
    assert facts == CuInitFacts(
        status="timeout", message="cuInit did not return within 1 s (the driver may be hung)"
    )


def test_an_interpreter_that_cannot_start_is_a_child_error(tmp_path: Path) -> None:
    facts = probe_cuinit(str(tmp_path / "no-python"), {}, timeout=5.0)
    assert facts.status == "child-error"
    assert facts.message is not None
    assert facts.message.startswith("could not start the cuInit child: ")


def test_the_examined_interpreter_runs_the_child_script() -> None:
    seen: list[tuple[str, ...]] = []

    def runner(
        argv: Sequence[str], env: Optional[Mapping[str, str]], timeout: float
    ) -> CommandResult:
        seen.append(tuple(argv))
        return CommandResult(tuple(argv), 1, "Traceback (most rec", "SyntaxError: bad\n", 0.1)

    facts = probe_cuinit("/opt/python3.7/bin/python", {}, runner, 7.0)
    assert seen == [("/opt/python3.7/bin/python", child_script("cuinit_child.py"))]
    assert facts == CuInitFacts(
        status="child-error",
        message="the cuInit child exited with 1 without a JSON report: SyntaxError: bad",
    )


# --- pure parsers -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("doc", "expected"),
    [
        pytest.param(
            {"library": "nvcuda.dll", "loaded": False, "load_error": "[WinError 126]"},
            CuInitFacts(status="no-library", library="nvcuda.dll", message="[WinError 126]"),
            id="windows-no-nvcuda",
        ),
        pytest.param(
            {"library": "libcuda.so.1", "loaded": True, "failure": "AttributeError: cuInit"},
            CuInitFacts(
                status="child-error", library="libcuda.so.1", message="AttributeError: cuInit"
            ),
            id="library-without-cuinit",
        ),
        pytest.param(
            {
                "library": "libcuda.so.1",
                "loaded": True,
                "path": "/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15",
                "code": 0,
                "name": "CUDA_SUCCESS",
                "driver_version": 12040,
                "device_count": None,
                "count_code": 3,
            },
            CuInitFacts(
                status="ok",
                code=0,
                name="CUDA_SUCCESS",
                library="/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15",
                driver_cuda="12.4",
                message="cuDeviceGetCount returned 3",
            ),
            id="count-failed-after-init",
        ),
        pytest.param(
            {"library": "libcuda.so.1", "loaded": True, "code": "0"},
            CuInitFacts(
                status="child-error",
                library="libcuda.so.1",
                message="the cuInit child reported no code",
            ),
            id="malformed-code",
        ),
    ],
)
def test_parse_cuinit_doc(doc: dict[str, object], expected: CuInitFacts) -> None:
    assert parse_cuinit_doc(doc) == expected


def test_a_non_object_report_is_a_child_error() -> None:
    result = CommandResult(("python",), 0, "[1, 2]", "", 0.1)
    assert parse_cuinit_result(result, 5.0).status == "child-error"


def test_collect_facts_runs_the_cuinit_and_kernel_probes(stub_dir: Path) -> None:
    from tfdoctor.doctor import collect_facts

    env = {**os.environ, **stub_env(stub_dir, INIT_RC="100")}
    facts = collect_facts(sys.executable, static=True, env=env)
    assert facts.cuinit is not None
    assert (facts.cuinit.status, facts.cuinit.code) == ("error", 100)
    assert facts.nvidia_kernel is not None
    assert facts.error_for("cuinit") is None
    assert facts.error_for("nvidia_kernel") is None
