"""The TensorFlow child probe: real TensorFlow, fake broken ones, and TF's recorded log lines."""

from __future__ import annotations

import ast
import importlib.metadata
import os
import stat
import sys
import time
import venv
from pathlib import Path

import pytest

from tfdoctor.facts import TensorFlowFacts, from_json, to_json
from tfdoctor.probes._run import CommandResult, child_script
from tfdoctor.probes.tensorflow import (
    CHILD,
    facts_from_result,
    parse_child_output,
    probe_tensorflow,
)

# tensorflow/python/platform/build_info.py of the tensorflow 2.21.0 manylinux x86_64 wheel.
BUILD_INFO_2_21 = '''\
"""Auto-generated module providing information about the build."""
import collections

build_info = collections.OrderedDict([('cpu_compiler', 'clang'), ('cuda_compute_capabilities', ['sm_60', 'sm_70', 'sm_80', 'sm_89', 'compute_90']), ('cuda_version', '12.5.1'), ('cudnn_version', '9'), ('is_cuda_build', True), ('is_rocm_build', False), ('is_tensorrt_build', False)])
'''  # noqa: E501 - recorded verbatim

# The build_info.py TF 2.1 and 2.2 wheels carry: module constants written by that era's
# tensorflow/tools/build_info/gen_build_info.py (license header cut), here a CUDA 10.1 build.
BUILD_INFO_2_2 = '''\
"""Generates a Python module containing information about the build."""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

is_rocm_build = False
is_cuda_build = True

cuda_version_number = '10.1'
cudnn_version_number = '7'
'''

# numpy/core/_multiarray_umath.py (NumPy 2.x) raises this when a module built against
# NumPy 1.x asks for the C API; the extension then replaces it with its own ImportError.
NUMPY2_ABI = """\
import sys

msg = (
    "\\nA module that was compiled using NumPy 1.x cannot be run in\\n"
    "NumPy 2.0.0 as it may crash. To support both 1.x and 2.x\\n"
    "versions of NumPy, modules must be compiled with NumPy 2.0.\\n"
    "Some module may need to rebuild instead e.g. with 'pybind11>=2.12'.\\n\\n"
    "If you are a user of the module, the easiest solution will be to\\n"
    "downgrade to 'numpy<2' or try to upgrade the affected module.\\n"
    "We expect that some modules will need time to support NumPy 2.\\n"
)
sys.stderr.write(msg)
try:
    raise ImportError(msg)
except ImportError:
    raise ImportError("numpy.core.multiarray failed to import")
"""

# tensorflow/python/pywrap_tensorflow.py wraps the loader's error like this.
LIBCUDART_MISSING = """\
import traceback

try:
    raise ImportError("libcudart.so.12: cannot open shared object file: No such file or directory")
except ImportError as exc:
    raise ImportError(
        f"{traceback.format_exc()}"
        "\\n\\nFailed to load the native TensorFlow runtime.\\n"
        "See https://www.tensorflow.org/install/errors for some common causes and solutions.\\n"
        "If you need help, create an issue at https://github.com/tensorflow/tensorflow/issues "
        "and include the entire stack trace above this error message."
    ) from exc
"""

SIGILL = "import os, signal\nos.kill(os.getpid(), signal.SIGILL)\n"
SIGSEGV = "import ctypes\nctypes.string_at(0)\n"
HANG = "import time\ntime.sleep(3600)\n"
EXITS = "import os\nos._exit(3)\n"
# Garbage, including a forged marker with a JSON document, then a failure.
GARBAGE = """\
print("{not json")
print("=== tfdoctor tf_info 0000000000000000 ===")
print('{"phase": "done", "status": "ok", "version": "9.9.9"}')
raise ImportError("DLL load failed while importing _pywrap_tensorflow_internal")
"""

# A working TensorFlow as far as the public API goes, with one GPU; get_build_info fails
# so the probe must fall back to the file. It logs recorded TF 2.4 lines on stderr.
WORKING_WITH_GPU = """\
import sys, types

__version__ = "2.4.1"
version = types.SimpleNamespace(GIT_VERSION="v2.4.0-49-g85c8b2a817f")
sys.stderr.write(
    "2021-04-09 19:52:41.024315: W tensorflow/stream_executor/platform/default/"
    "dso_loader.cc:60] Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: "
    "cannot open shared object file: No such file or directory\\n"
    "2021-04-09 19:52:41.024341: I tensorflow/stream_executor/cuda/cudart_stub.cc:29] "
    "Ignore above cudart dlerror if you do not have a GPU set up on your machine.\\n"
)
print("user code printing on stdout")


def _broken():
    raise RuntimeError("build info unavailable")


sysconfig = types.SimpleNamespace(get_build_info=_broken)
test = types.SimpleNamespace(is_built_with_cuda=lambda: True, is_built_with_rocm=lambda: False)


class PhysicalDevice:
    def __init__(self, name, device_type):
        self.name = name
        self.device_type = device_type


def _details(device):
    return {"compute_capability": (8, 6), "device_name": "NVIDIA GeForce RTX 3090"}


config = types.SimpleNamespace(
    list_physical_devices=lambda: [
        PhysicalDevice("/physical_device:CPU:0", "CPU"),
        PhysicalDevice("/physical_device:GPU:0", "GPU"),
    ],
    experimental=types.SimpleNamespace(get_device_details=_details),
)
"""


# TF 2.2's public API as far as the child uses it: tf.sysconfig exists, but get_build_info
# only arrived in 2.3.
TF_2_2 = """\
import types

__version__ = "2.2.0"
version = types.SimpleNamespace(GIT_VERSION="v2.2.0-rc4-8-g2b96f3662b")
sysconfig = types.SimpleNamespace(get_include=lambda: "", get_lib=lambda: "")
test = types.SimpleNamespace(is_built_with_cuda=lambda: True, is_built_with_rocm=lambda: False)
config = types.SimpleNamespace(list_physical_devices=lambda: [])
"""


def _fake_tensorflow(
    root: Path, init_source: str | None, build_info: str | None = BUILD_INFO_2_21
) -> dict[str, str]:
    """A ``tensorflow`` package under ``root`` first on PYTHONPATH; returns the child env."""
    package = root / "tensorflow"
    (package / "python" / "platform").mkdir(parents=True)
    if build_info is not None:
        (package / "python" / "platform" / "build_info.py").write_text(build_info)
    if init_source is not None:
        (package / "__init__.py").write_text(init_source)
    env = dict(os.environ)
    env["PYTHONPATH"] = str(root)
    return env


# --- real TensorFlow ---------------------------------------------------------------------


@pytest.mark.slow
def test_real_tensorflow_cpu_machine() -> None:
    if Path("/dev/nvidiactl").exists():
        pytest.skip("expects a machine without an NVIDIA GPU; see the gpu test")
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")  # the probe must turn logging back on
    env.pop("PYTHONPATH", None)

    facts = probe_tensorflow(sys.executable, env=env, timeout=180)

    assert facts.status == "ok", facts.stderr_tail
    assert facts.version == importlib.metadata.version("tensorflow")
    assert facts.git_version and facts.git_version.startswith("v")
    assert facts.build_info_source == "import"
    assert facts.is_cuda_build is True
    assert facts.is_rocm_build is False
    assert facts.cuda_version and facts.cuda_version[0].isdigit()
    assert all(cc.startswith(("sm_", "compute_")) for cc in facts.compute_capabilities)
    assert facts.compute_capabilities
    assert "cuda_compute_capabilities" not in facts.build_info
    types = [d.device_type for d in facts.devices]
    assert "CPU" in types
    assert "GPU" not in types
    assert "Could not find cuda drivers on your machine, GPU will not be used." in (
        facts.log_errors
    )
    assert any(line.startswith("failed call to cuInit") for line in facts.log_errors)
    assert not any("optimized to use available CPU" in line for line in facts.log_errors)
    assert facts.returncode == 0
    assert facts.error_type is None


@pytest.mark.gpu
@pytest.mark.slow
def test_real_tensorflow_sees_the_gpu() -> None:
    if not Path("/dev/nvidiactl").exists():
        pytest.skip("needs an NVIDIA GPU and its driver")
    facts = probe_tensorflow(sys.executable, timeout=180)

    assert facts.status == "ok", facts.stderr_tail
    gpus = [d for d in facts.devices if d.device_type == "GPU"]
    assert gpus, facts.log_errors
    major, minor = gpus[0].details["compute_capability"].split(".")
    assert major.isdigit()
    assert minor.isdigit()
    assert gpus[0].details["device_name"]


# --- fake broken TensorFlow ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("init_source", "error_type", "message_parts"),
    [
        pytest.param(
            NUMPY2_ABI,
            "ImportError",
            [
                "numpy.core.multiarray failed to import",
                "caused by ImportError: \nA module that was compiled using NumPy 1.x cannot be "
                "run in\nNumPy 2.0.0 as it may crash.",
            ],
            id="numpy2-abi",
        ),
        pytest.param(
            LIBCUDART_MISSING,
            "ImportError",
            [
                "Failed to load the native TensorFlow runtime.",
                "caused by ImportError: libcudart.so.12: cannot open shared object file: "
                "No such file or directory",
            ],
            id="libcudart-missing",
        ),
        pytest.param(
            GARBAGE,
            "ImportError",
            ["DLL load failed while importing _pywrap_tensorflow_internal"],
            id="garbage-on-stdout",
        ),
    ],
)
def test_import_error(
    tmp_path: Path, init_source: str, error_type: str, message_parts: list[str]
) -> None:
    env = _fake_tensorflow(tmp_path, init_source)

    facts = probe_tensorflow(sys.executable, env=env, timeout=30)

    assert facts.status == "import-error", facts.stderr_tail
    assert facts.error_type == error_type
    assert facts.error_message is not None
    for part in message_parts:
        assert part in facts.error_message
    assert facts.version is None
    # The import failed, so the build info comes from the file.
    assert facts.build_info_source == "file"
    assert facts.build_info["cuda_version"] == "12.5.1"
    assert facts.cuda_version == "12.5.1"
    assert facts.cudnn_version == "9"
    assert facts.is_cuda_build is True
    assert facts.compute_capabilities == ("sm_60", "sm_70", "sm_80", "sm_89", "compute_90")
    assert facts.returncode == 0
    assert "Traceback (most recent call last)" in facts.stderr_tail


@pytest.mark.parametrize(
    ("init_source", "signal_name", "returncode"),
    [
        pytest.param(SIGILL, "SIGILL", -4, id="sigill"),
        pytest.param(SIGSEGV, "SIGSEGV", -11, id="sigsegv-null-read"),
    ],
)
def test_killed_by_signal(
    tmp_path: Path, init_source: str, signal_name: str, returncode: int
) -> None:
    env = _fake_tensorflow(tmp_path, init_source)

    facts = probe_tensorflow(sys.executable, env=env, timeout=30)

    assert facts.status == "signal"
    assert facts.signal == signal_name
    assert facts.returncode == returncode
    assert facts.error_type is None
    assert facts.build_info_source == "file"
    assert facts.is_cuda_build is True


def test_hang_is_killed_at_the_timeout(tmp_path: Path) -> None:
    env = _fake_tensorflow(tmp_path, HANG)

    start = time.monotonic()
    facts = probe_tensorflow(sys.executable, env=env, timeout=2)
    elapsed = time.monotonic() - start

    assert elapsed < 3
    assert facts.status == "timeout"
    assert facts.timeout == 2
    assert facts.seconds is not None
    assert facts.seconds >= 2
    # What the child printed before importing still names the installed build.
    assert facts.build_info_source == "file"
    assert facts.cuda_version == "12.5.1"


def test_exit_without_result_is_child_error(tmp_path: Path) -> None:
    env = _fake_tensorflow(tmp_path, EXITS)

    facts = probe_tensorflow(sys.executable, env=env, timeout=30)

    assert facts.status == "child-error"
    assert facts.returncode == 3
    assert facts.error_message == "the child printed no result (exit status 3)"
    assert facts.build_info_source == "file"


def test_working_api_with_gpu_and_a_failing_item(tmp_path: Path) -> None:
    env = _fake_tensorflow(tmp_path, WORKING_WITH_GPU)

    facts = probe_tensorflow(sys.executable, env=env, timeout=30)

    assert facts.status == "ok", facts.stderr_tail
    assert facts.version == "2.4.1"
    assert facts.git_version == "v2.4.0-49-g85c8b2a817f"
    # get_build_info raised: the rest was still collected and the file filled the build info.
    assert "tf.sysconfig.get_build_info failed: RuntimeError: build info unavailable" in (
        facts.stderr_tail
    )
    assert facts.build_info_source == "file"
    assert facts.cuda_version == "12.5.1"
    assert [(d.name, d.device_type) for d in facts.devices] == [
        ("/physical_device:CPU:0", "CPU"),
        ("/physical_device:GPU:0", "GPU"),
    ]
    assert facts.devices[0].details == {}
    assert facts.devices[1].details == {
        "compute_capability": "8.6",
        "device_name": "NVIDIA GeForce RTX 3090",
    }
    assert facts.log_errors == (
        "Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open "
        "shared object file: No such file or directory",
    )
    # The facts survive their JSON form, so a saved run replays through the checks.
    assert from_json(TensorFlowFacts, to_json(facts), "tensorflow") == facts


def test_tf_2_2_without_get_build_info_is_ok(tmp_path: Path) -> None:
    env = _fake_tensorflow(tmp_path, TF_2_2, BUILD_INFO_2_2)

    facts = probe_tensorflow(sys.executable, env=env, timeout=30)

    assert facts.status == "ok", facts.stderr_tail
    assert facts.version == "2.2.0"
    assert "tf.sysconfig.get_build_info failed: AttributeError" in facts.stderr_tail
    assert facts.build_info_source == "file"
    assert facts.build_info == {
        "cuda_version_number": "10.1",
        "cudnn_version_number": "7",
        "is_cuda_build": "True",
        "is_rocm_build": "False",
    }
    assert (facts.cuda_version, facts.cudnn_version) == ("10.1", "7")
    assert (facts.is_cuda_build, facts.is_rocm_build) == (True, False)


def test_build_info_comes_only_from_the_imported_package(tmp_path: Path) -> None:
    # The imported tensorflow has no build_info.py; another one later on the path has, and
    # must not be taken for it.
    first = tmp_path / "first"
    env = _fake_tensorflow(first, LIBCUDART_MISSING, build_info=None)
    _fake_tensorflow(tmp_path / "second", TF_2_2)
    env["PYTHONPATH"] = os.pathsep.join([str(first), str(tmp_path / "second")])

    facts = probe_tensorflow(sys.executable, env=env, timeout=30)

    assert facts.status == "import-error", facts.stderr_tail
    assert (facts.build_info_source, facts.build_info, facts.cuda_version) == (None, {}, None)


# --- not installed, no interpreter ---------------------------------------------------------


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The interpreter of a fresh venv without TensorFlow (or pip)."""
    root = tmp_path_factory.mktemp("bare-venv")
    venv.create(root, with_pip=False, symlinks=os.name != "nt")
    if os.name == "nt":
        return str(root / "Scripts" / "python.exe")
    return str(root / "bin" / "python")


def _clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}


def test_not_installed_in_a_fresh_venv(bare_python: str) -> None:
    facts = probe_tensorflow(bare_python, env=_clean_env(), timeout=30)

    assert facts.status == "not-installed", facts.stderr_tail
    assert facts.interpreter == bare_python
    assert facts.build_info == {}
    assert facts.build_info_source is None
    assert facts.returncode == 0


def test_namespace_leftover_is_import_error(bare_python: str, tmp_path: Path) -> None:
    # A tensorflow/ directory without __init__.py; a regular package anywhere on the path
    # would win over it, hence the bare venv.
    env = _fake_tensorflow(tmp_path, None)
    env.pop("PYTHONHOME", None)

    facts = probe_tensorflow(bare_python, env=env, timeout=30)

    assert facts.status == "import-error", facts.stderr_tail
    assert facts.error_type == "NamespacePackage"
    assert facts.error_message is not None
    assert str(tmp_path / "tensorflow") in facts.error_message
    assert facts.build_info_source == "file"


def test_missing_interpreter_is_child_error(tmp_path: Path) -> None:
    python = str(tmp_path / "no-such-python")

    facts = probe_tensorflow(python, timeout=30)

    assert facts.status == "child-error"
    assert facts.error_type == "OSError"
    assert facts.error_message is not None
    assert python in facts.error_message
    assert facts.returncode is None


def test_not_a_python_is_child_error(tmp_path: Path) -> None:
    fake = tmp_path / "python"
    fake.write_text("#!/bin/sh\necho 'Python 2.7.18' >&2\nexit 1\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    if os.name == "nt":
        pytest.skip("shell scripts are not executables on Windows")

    facts = probe_tensorflow(str(fake), timeout=30)

    assert facts.status == "child-error"
    assert facts.returncode == 1
    assert facts.stderr_tail == "Python 2.7.18"


# --- pure classification -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("returncode", "signal_name"),
    [
        pytest.param(0xC000001D, "SIGILL", id="windows-illegal-instruction"),
        pytest.param(0xC0000005, "SIGSEGV", id="windows-access-violation"),
        pytest.param(-6, "SIGABRT", id="posix-abort"),
    ],
)
def test_crash_codes_become_signals(returncode: int, signal_name: str) -> None:
    result = CommandResult(("python",), returncode, "", "", 1.5)

    facts = facts_from_result(result, "M", "python", 30.0)

    assert facts.status == "signal"
    assert facts.signal == signal_name


@pytest.mark.parametrize(
    ("returncode", "signal_name"),
    [
        pytest.param(0xC000001D, "SIGILL", id="illegal-instruction"),
        pytest.param(0xC0000005, "SIGSEGV", id="access-violation"),
        pytest.param(-1073741819, "SIGSEGV", id="access-violation-read-signed"),
        pytest.param(0xC00000FD, "SIGSEGV", id="stack-overflow"),
        pytest.param(0xC0000094, "SIGFPE", id="integer-divide-by-zero"),
        pytest.param(-4, "SIGILL", id="posix-sigill"),
        pytest.param(1, None, id="plain-exit-status"),
        pytest.param(0, None, id="success"),
        pytest.param(None, None, id="never-started"),
    ],
)
def test_command_result_names_windows_crashes_as_signals(
    returncode: int | None, signal_name: str | None
) -> None:
    result = CommandResult(("python",), returncode, "", "", 1.5)

    assert result.signal_name == signal_name


def test_parse_child_output_keeps_only_marked_json() -> None:
    stdout = 'noise\nM\n{"phase": "pre-import"}\nM\n{broken\nM\n[1]\nM\n{"phase": "done"}\n'

    assert parse_child_output(stdout, "M") == [{"phase": "pre-import"}, {"phase": "done"}]


# --- the child stays runnable on old interpreters --------------------------------------------


def test_child_script_parses_as_python_3_7() -> None:
    source = Path(child_script(CHILD)).read_text(encoding="utf-8")

    tree = ast.parse(source, feature_version=(3, 7))

    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    stdlib = getattr(sys, "stdlib_module_names", None)
    if stdlib is None:
        pytest.skip("sys.stdlib_module_names needs Python 3.10")
    # Standard library only (tensorflow is what it examines).
    assert imported - {"tensorflow"} <= set(stdlib)
    assert "tensorflow" in imported


def test_every_status_the_child_writes_is_a_tfstatus() -> None:
    # The child is stdlib-only and cannot import the constants: its words must match them,
    # or the parent would take a finished import for a child that printed nothing.
    from tfdoctor.facts import TFStatus

    tree = ast.parse(Path(child_script(CHILD)).read_text(encoding="utf-8"))
    written = {
        node.value.value
        for node in ast.walk(tree)
        if isinstance(node, ast.keyword)
        and node.arg == "status"
        and isinstance(node.value, ast.Constant)
    } | {
        value.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Dict)
        for key, value in zip(node.keys, node.values)
        if isinstance(key, ast.Constant) and key.value == "status"
        if isinstance(value, ast.Constant)
    }
    known = {v for k, v in vars(TFStatus).items() if k.isupper()}
    assert written == {TFStatus.OK, TFStatus.NOT_INSTALLED, TFStatus.IMPORT_ERROR}
    assert written <= known
