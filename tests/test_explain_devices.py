"""What TensorFlow answered when asked for its GPUs, read as an observation, and the reasons
for an empty answer ranked by what else the log shows."""

from __future__ import annotations

from typing import Optional

import pytest

from tests import factories as f
from tests.explaining import explained, fix_text, readings, top_error
from tfdoctor.evidence.devices import (
    DeviceListing,
    built_with_cuda,
    gpus_listed,
    kernel_refused_attrs,
    read_device_listings,
    unix_prompt,
    visible_devices_set,
)
from tfdoctor.explain import explain
from tfdoctor.explain.reader import split_text
from tfdoctor.explain.scanning import scan
from tfdoctor.findings import Finding, Report, Severity
from tfdoctor.signatures import load_signatures

SIGNATURES = load_signatures()

DEVICE_LIB_CPU = """[name: "/device:CPU:0"
device_type: "CPU"
memory_limit: 268435456
locality {
}
incarnation: 1234
]"""

DEVICE_LIB_XLA = """[name: "/device:CPU:0"
device_type: "CPU"
memory_limit: 268435456
incarnation: 1
, name: "/device:XLA_CPU:0"
device_type: "XLA_CPU"
memory_limit: 17179869184
incarnation: 2
, name: "/device:XLA_GPU:0"
device_type: "XLA_GPU"
memory_limit: 17179869184
incarnation: 3
]"""


@pytest.mark.parametrize(
    ("text", "gpus", "cuda"),
    [
        (">>> tf.config.list_physical_devices('GPU')\n[]", 0, None),
        ('print(tf.config.experimental.list_physical_devices(device_type="GPU"))\n[]', 0, None),
        (
            "python -c \"import tensorflow as tf; print(tf.config.list_physical_devices('GPU'))\"\n"
            "2.15.0 []",
            0,
            None,
        ),
        ("Num GPUs Available:  0", 0, None),
        ("Number of GPUs available: 2", 2, None),
        ("GPU devices: []", 0, None),
        ("[PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]", 0, None),
        (
            "[PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU'), "
            "PhysicalDevice(name='/physical_device:GPU:0', device_type='GPU')]",
            1,
            None,
        ),
        (DEVICE_LIB_CPU, 0, None),
        (">>> tf.test.is_gpu_available()\nFalse", 0, None),
        (">>> tf.test.gpu_device_name()\n''", 0, None),
        (
            "      2 name = tf.test.gpu_device_name()\n      3 if name != '/device:GPU:0':\n"
            "----> 4     raise SystemError('GPU device not found')\n\n"
            "SystemError: GPU device not found",
            0,
            None,
        ),
        # The GPU check scripts copy (if tf.test.gpu_device_name(): print('Default GPU
        # Device: ...') else: print("Please install GPU version of TF")), answering no GPU.
        pytest.param("2.10.0\nPlease install GPU version of TF", 0, None, id="gpu-check-else"),
        pytest.param("Default GPU Device: ", 0, None, id="gpu-check-no-name"),
        ("tf.test.is_built_with_cuda(): False", None, False),
        (">>> tf.test.is_built_with_cuda()\nTrue", None, True),
        # A session's device placement log: printf'd bare, or LOG(INFO)'d by later releases.
        (
            "Device mapping: no known devices.\nMatMul: /job:localhost/replica:0/task:0/cpu:0",
            0,
            None,
        ),
        (
            "I0000 00:00:1700000000.000001   4242 direct_session.cc:380] Device mapping: no "
            "known devices.",
            0,
            None,
        ),
    ],
)
def test_each_form_of_the_answer_is_read(
    text: str, gpus: Optional[int], cuda: Optional[bool]
) -> None:
    found = read_device_listings(text)
    assert found, text
    assert gpus_listed(found) == gpus
    assert built_with_cuda(found) == cuda


@pytest.mark.parametrize(
    "text",
    [
        # A device named in a log line is no count of the GPUs listed.
        "Created device /job:localhost/replica:0/task:0/device:GPU:0 with 9620 MB memory",
        "Placing op on GPU:0",
        # An empty list that answers no question about GPUs.
        "x = []\nprint(x)\n[]",
        "Successfully installed absl-py-2.1.0",
        # The words raised by a check the log does not show asking TensorFlow.
        "if not gpus:\n    raise RuntimeError('GPU device not found')\n"
        "RuntimeError: GPU device not found",
        # One kernel's definition as the kernel registry logs it, not the process's devices.
        'E tensorflow/core/framework/op_kernel.cc:943] OpKernel (\'op: "BestSplits" '
        'device_type: "CPU"\') for unknown op: BestSplits',
        # The same check's source pasted, and its answer naming a GPU.
        pytest.param(
            "if tf.test.gpu_device_name():\n"
            "    print('Default GPU Device: {}'.format(tf.test.gpu_device_name()))\n"
            'else:\n    print("Please install GPU version of TF")',
            id="gpu-check-source",
        ),
        pytest.param("Default GPU Device: /device:GPU:0", id="gpu-check-named"),
        # The mapping of a session that has a GPU lists it below its heading.
        "Device mapping:\n/job:localhost/replica:0/task:0/device:GPU:0 -> device: 0, name: "
        "Tesla T4, pci bus id: 0000:00:04.0, compute capability: 7.5",
    ],
)
def test_other_lines_are_no_answer(text: str) -> None:
    assert read_device_listings(text) == []


def test_xla_gpu_devices_are_counted_apart() -> None:
    (listing,) = read_device_listings(DEVICE_LIB_XLA)
    assert listing == DeviceListing(listing.line, listing.text, gpus=0, xla_gpus=1)


def test_unix_prompts_are_told_from_windows_ones() -> None:
    assert unix_prompt("(venv) me@box:~/src$ python t.py") == "(venv) me@box:~/src$"
    assert unix_prompt("me@MacBook-Pro ~ % python t.py") == "me@MacBook-Pro ~ %"
    assert unix_prompt("C:\\Users\\me> python t.py") is None


def _explain(text: str) -> Report:
    return explain([split_text(text)], SIGNATURES, f.FIXTURE_MATRIX)


def _top(report: Report) -> Finding:
    return max(report.findings, key=lambda x: x.severity.rank)


def test_native_windows_with_its_release_is_decided() -> None:
    text = (
        'C:\\Users\\me> python -c "import tensorflow as tf; print(tf.__version__); '
        "print(tf.config.list_physical_devices('GPU'))\"\n"
        "Successfully installed tensorflow-2.15.0\n"
        "[]"
    )
    top = _top(_explain(text))
    assert top.cause == "windows-native-gpu-ended"
    assert top.severity is Severity.ERROR
    assert top.fix is not None and "WSL2" in top.fix.text and "wsl --install" in top.fix.commands


def test_without_any_sign_of_the_platform_the_candidates_are_ranked_not_decided() -> None:
    top = _top(_explain(DEVICE_LIB_CPU))
    assert top.cause == "windows-native-gpu-ended"
    assert top.severity is Severity.WARNING
    assert top.fix is not None
    text = top.fix.text
    assert "neither the operating system" in text
    # Every other candidate follows, with what tells it apart.
    for words in ("CUDA or cuDNN libraries", "NVIDIA driver", "CPU-only build", "CUDA_VISIBLE"):
        assert words in text
    assert "nvidia-smi" in top.fix.commands


def test_a_unix_prompt_puts_the_libraries_first() -> None:
    text = (
        '(venv) me@box:~$ python3 -c "import tensorflow as tf; '
        "print(tf.config.list_physical_devices('GPU'))\"\n[]"
    )
    top = _top(_explain(text))
    assert top.cause == "cuda-libs-missing"
    assert top.severity is Severity.WARNING
    # The prompt says Linux (bash's user@host:~$): the libraries lead the candidates.
    assert top.fix is not None
    assert "1. the CUDA or cuDNN libraries" in top.fix.text
    assert "linux" in top.fix.text


def test_a_build_without_cuda_is_named_as_such() -> None:
    text = "/home/me/env/lib/python3.11/site-packages\ntf.test.is_built_with_cuda(): False\n"
    top = _top(_explain(text))
    assert top.cause == "tf-cpu-only-build"
    assert top.severity is Severity.ERROR


_ASKED = ">>> tf.config.list_physical_devices('GPU')\n"


def test_a_macs_empty_list_with_the_plugin_named_gets_no_cuda_command() -> None:
    # macOS has no CUDA build: neither the and-cuda extra nor NVIDIA's tools or variables.
    text = (
        '(tf) me@MacBook-Air ~ % python -c "import tensorflow as tf; '
        "print(tf.config.list_physical_devices('GPU'))\"\n[]\n"
        "(tf) me@MacBook-Air ~ % pip show tensorflow-metal\n"
        "WARNING: Package(s) not found: tensorflow-metal\n"
    )
    report = _explain(text)
    commands = [c for x in report.findings if x.fix is not None for c in x.fix.commands]
    assert commands and any("tensorflow-metal" in c for c in commands)
    assert not [c for c in commands if "and-cuda" in c or "nvidia-smi" in c or "CUDA_" in c]


def test_a_macs_cpu_build_gets_the_metal_release_paired_with_its_tensorflow() -> None:
    # An unpinned tensorflow-metal is the newest, built for another TensorFlow line (and
    # here already installed): the fix installs the release the companion table pairs.
    text = (
        "(tf) me@MacBook-Air ~ % pip list | grep tensorflow\n"
        "tensorflow-macos 2.12.0\n"
        '(tf) me@MacBook-Air ~ % python -c "import tensorflow as tf; '
        "print(tf.config.list_physical_devices('GPU'))\"\n[]\n"
        "(tf) me@MacBook-Air ~ % pip show tensorflow-metal\n"
        "Name: tensorflow-metal\nVersion: 1.2.0\n"
    )
    report = _explain(text)
    [top] = [x for x in report.findings if x.cause == "tf-cpu-only-build"]
    assert top.fix is not None
    assert 'pip install "tensorflow-metal"' not in top.fix.commands
    assert any('"tensorflow-metal==0.8.*"' in c for c in top.fix.commands)


@pytest.mark.parametrize(
    "sign",
    [
        pytest.param(
            "Successfully installed tensorflow-2.18.0-cp311-cp311-macosx_12_0_arm64.whl\n",
            id="wheel-tag",
        ),
        pytest.param("Platform: macOS-14.1-arm64-arm-64bit\n", id="platform-string"),
        pytest.param("me@MacBook-Pro ~ % python3 t.py\n", id="zsh-prompt"),
        # A distribution whose every release is a macOS wheel, listed installed.
        pytest.param("tensorflow-macos      2.12.0\n", id="macos-only-distribution-listed"),
    ],
)
def test_on_macos_an_empty_list_is_the_metal_plugin_missing(sign: str) -> None:
    top = _top(_explain(sign + _ASKED + "[]\n"))
    assert top.cause == "package-not-installed"
    assert top.fix is not None and "tensorflow-metal" in " ".join(top.fix.commands)
    # Never the Windows or CUDA candidates: no CUDA build exists for macOS.
    assert "wsl" not in " ".join(top.fix.commands) and "nvidia-smi" not in top.fix.commands


def test_a_macos_only_distribution_named_but_not_installed_is_no_mac() -> None:
    # pip's refusal names it; nothing says it is installed, so no system is read from it.
    text = "ERROR: No matching distribution found for tensorflow-macos\n" + _ASKED + "[]\n"
    assert _top(_explain(text)).cause != "package-not-installed"


def test_a_linux_or_windows_wheel_tag_is_no_mac() -> None:
    # Every form of tag the wheel specification has: the legacy manylinux names, linux_*,
    # musllinux and Windows on Arm are read as their system too.
    for tag, cause in (
        ("manylinux_2_17_x86_64", "cuda-libs-missing"),
        ("manylinux2014_x86_64", "cuda-libs-missing"),
        ("linux_aarch64", "cuda-libs-missing"),
        ("win_amd64", "windows-native-gpu-ended"),
        ("win_arm64", "windows-native-gpu-ended"),
    ):
        text = f"Successfully installed tensorflow-2.18.0-cp311-cp311-{tag}.whl\n{_ASKED}[]\n"
        assert _top(_explain(text)).cause == cause, tag


def test_xla_gpus_without_a_gpu_point_at_the_libraries() -> None:
    top = _top(_explain(DEVICE_LIB_XLA))
    assert top.cause == "cuda-libs-missing"
    assert "XLA_GPU" in top.detail


def test_a_session_mapping_no_devices_gets_the_candidates_of_an_empty_list() -> None:
    # The GPU is meant: CUDA's runtime library loaded (dso_loader.cc's line).
    text = (
        "I tensorflow/stream_executor/platform/default/dso_loader.cc:44] Successfully opened "
        "dynamic library libcudart.so.10.1\n"
        "Device mapping: no known devices.\n"
        "Add: (Add): /job:localhost/replica:0/task:0/device:CPU:0\n"
    )
    candidates = [x.cause for x in _explain(text).findings if x.severity is Severity.WARNING]
    assert "tf-cpu-only-build" in candidates and "driver-not-loaded" in candidates


@pytest.mark.parametrize(
    "text",
    [
        # log_device_placement on a machine without a GPU, nothing else asked of one.
        "Device mapping: no known devices.\n"
        "Add: (Add): /job:localhost/replica:0/task:0/device:CPU:0\n",
        # TensorFlow 2's start on such a machine, then a graph's session.
        "I0000 00:00:1700000000.100000    4242 cudart_stub.cc:31] Could not find cuda drivers "
        "on your machine, GPU will not be used.\n"
        "I0000 00:00:1700000000.200000    4242 direct_session.cc:382] Device mapping: no known "
        "devices.\n"
        "Add: (Add): /job:localhost/replica:0/task:0/device:CPU:0\n",
    ],
)
def test_a_session_mapping_no_devices_on_a_cpu_run_is_no_finding(text: str) -> None:
    assert all(x.severity.rank < Severity.WARNING.rank for x in _explain(text).findings)


def test_a_session_mapping_no_devices_beside_a_failed_driver_adds_nothing() -> None:
    # The mapping is read as an empty GPU list, yet the driver's failure already says why:
    # the report is the one of the driver's line alone, without an empty list's candidates.
    driver = (
        "E tensorflow/stream_executor/cuda/cuda_driver.cc:491] failed call to cuInit: "
        "CUDA_ERROR_NO_DEVICE\n"
    )
    text = driver + "Device mapping: no known devices.\n"
    assert gpus_listed(read_device_listings(text)) == 0
    alone = [(x.cause, x.severity, x.summary) for x in _explain(driver).findings]
    assert [(x.cause, x.severity, x.summary) for x in _explain(text).findings] == alone


def test_a_listed_gpu_is_no_finding() -> None:
    text = "Num GPUs Available:  1"
    assert all(x.severity.rank < Severity.WARNING.rank for x in _explain(text).findings)


def test_a_finding_that_already_says_why_is_not_repeated() -> None:
    text = (
        "2021-01-02 20:12:26.425425: W tensorflow/stream_executor/platform/default/"
        "dso_loader.cc:60] Could not load dynamic library 'libcudart.so.11.0'; dlerror: "
        "libcudart.so.11.0: cannot open shared object file: No such file or directory\n"
        "Num GPUs Available:  0"
    )
    report = _explain(text)
    causes = [x.cause for x in readings(report)]
    assert causes == ["cuda-libs-missing"]
    assert all(x.summary != "TensorFlow lists no GPU" for x in report.findings)


def test_a_toolkit_of_another_major_on_the_printed_path_is_named() -> None:
    text = (
        "2023-06-01 10:00:00.000000: W tensorflow/compiler/xla/stream_executor/platform/default/"
        "dso_loader.cc:64] Could not load dynamic library 'libcudart.so.11.0'; dlerror: "
        "libcudart.so.11.0: cannot open shared object file: No such file or directory; "
        "LD_LIBRARY_PATH: /usr/local/cuda-12.1/lib64:/usr/lib"
    )
    top = _top(_explain(text))
    assert top.cause == "cuda-libs-missing"
    assert top.fix is not None
    assert "CUDA 12.1 toolkit (/usr/local/cuda-12.1/lib64)" in top.fix.text
    assert "built for CUDA 12" in top.fix.text and "CUDA 11 toolkit" in top.fix.text
    # The log shows no Python: no release is installed that may have no wheel for it.
    assert top.fix.commands == ()
    # The same file with no toolkit on the path gets the general fix.
    plain = _top(_explain(text.split("; LD_LIBRARY_PATH", maxsplit=1)[0]))
    assert plain.fix is not None and "/usr/local/cuda-12.1" not in plain.fix.text


def _runtime_not_loaded(soname: str, dll: bool = False) -> str:
    error = (
        f"{soname} not found"
        if dll
        else (f"{soname}: cannot open shared object file: No such file or directory")
    )
    return (
        "2020-08-08 23:41:49.327601: W tensorflow/stream_executor/platform/default/"
        f"dso_loader.cc:59] Could not load dynamic library '{soname}'; dlerror: {error}\n"
    )


_NVCC = (
    "$ nvcc --version\nnvcc: NVIDIA (R) Cuda compiler driver\n"
    "Cuda compilation tools, release {0}, V{0}.89\n"
)


@pytest.mark.parametrize(
    ("shown", "release"),
    [
        pytest.param(_NVCC.format("12.1"), "12.1", id="nvcc"),
        pytest.param(
            "$ cat /usr/local/cuda/version.txt\nCUDA Version 12.1.105\n", "12.1", id="txt"
        ),
    ],
)
def test_a_toolkit_of_another_major_the_log_shows_installed_is_named(
    shown: str, release: str
) -> None:
    top = _top(_explain(_runtime_not_loaded("libcudart.so.11.0") + shown))
    assert top.cause == "cuda-libs-missing" and top.fix is not None
    assert f"the CUDA toolkit installed is {release}" in top.fix.text
    # Either way out: a TensorFlow of the toolkit the user has, or the build's own toolkit.
    assert "built for CUDA 12" in top.fix.text and "CUDA 11 toolkit" in top.fix.text


def test_before_cuda_11_another_minor_does_not_serve_the_runtime() -> None:
    # libcudart.so.10.1 is CUDA 10.1's alone: a 10.2 toolkit does not provide it, and no
    # TensorFlow was built for 10.2.
    top = _top(_explain(_runtime_not_loaded("libcudart.so.10.1") + _NVCC.format("10.2")))
    assert top.fix is not None
    assert "the CUDA toolkit installed is 10.2" in top.fix.text
    assert "CUDA 10.1 toolkit" in top.fix.text and "built for CUDA" not in top.fix.text
    # A 10.1 toolkit serves the builds of 2.1 to 2.3, not those of 10.0 (1.13 to 2.0).
    older = _top(_explain(_runtime_not_loaded("libcudart.so.10.0") + _NVCC.format("10.1")))
    assert older.fix is not None and "built for CUDA 10.1 (up to TensorFlow 2.3" in older.fix.text


def test_a_windows_dll_with_another_toolkit_names_the_native_windows_lines() -> None:
    text = _runtime_not_loaded("cudart64_101.dll", dll=True) + _NVCC.format("11.2")
    top = _top(_explain(text))
    assert top.fix is not None
    # The native Windows GPU builds end at 2.10; Windows finds DLLs through PATH.
    assert "up to TensorFlow 2.10" in top.fix.text and "bin directory on PATH" in top.fix.text
    # CUDA 11.0 has cusolver64_10.dll, not the cusolver64_11.dll of 2.5 to 2.10's builds.
    older = _top(_explain(_runtime_not_loaded("cudart64_101.dll", dll=True) + _NVCC.format("11.0")))
    assert older.fix is not None and "up to TensorFlow 2.4." in older.fix.text


@pytest.mark.parametrize(
    ("dll", "shown", "release"),
    [
        pytest.param(
            True,
            "C:\\> echo %CUDA_PATH%\n"
            "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v10.2\n",
            "10.2",
            id="windows-cuda-path",
        ),
        pytest.param(
            False,
            "$ ls -l /usr/local/cuda\nlrwxrwxrwx 1 root root 20 Mar  1 /usr/local/cuda -> "
            "/usr/local/cuda-10.2/\n",
            "10.2",
            id="linux-toolkit-dir",
        ),
        # A CUDA runtime the log shows on the disk by its path, in a directory not named for
        # its release: its file name gives the release.
        pytest.param(
            False,
            "$ ls /usr/local/cuda/lib64/libcudart*\n/usr/local/cuda/lib64/libcudart.so  "
            "/usr/local/cuda/lib64/libcudart.so.10.2  /usr/local/cuda/lib64/libcudart.so.10.2.89\n",
            "10.2",
            id="linux-listing",
        ),
        pytest.param(
            False,
            "$ find / -name 'libcudart.so*'\n"
            "/opt/cuda/targets/x86_64-linux/lib/libcudart.so.11.0\n",
            "11",
            id="linux-find",
        ),
        pytest.param(
            True,
            "C:\\> where cudart64_*.dll\nD:\\tools\\cuda\\bin\\cudart64_102.dll\n",
            "10.2",
            id="windows-where",
        ),
    ],
)
def test_a_toolkit_directory_or_runtime_file_shows_the_toolkit(
    dll: bool, shown: str, release: str
) -> None:
    asked = "cudart64_101.dll" if dll else "libcudart.so.10.1"
    # Under TensorFlow's own note too: a toolkit installed shows a GPU setup.
    top = _top(_explain(_runtime_not_loaded(asked, dll=dll) + _CUDART_NOTE + shown))
    assert top.cause == "cuda-libs-missing" and top.severity.rank >= Severity.WARNING.rank
    assert top.fix is not None
    assert f"TensorFlow asked for {asked} (CUDA 10.1)" in top.fix.text
    assert f"the CUDA toolkit installed is {release}" in top.fix.text
    assert "CUDA 10.1 toolkit" in top.fix.text


#: TensorFlow's note under the runtime's dlerror (cudart_stub.cc), printed GPU or not.
_CUDART_NOTE = (
    "2020-08-08 23:41:49.327623: I tensorflow/stream_executor/cuda/cudart_stub.cc:29] Ignore "
    "above cudart dlerror if you do not have a GPU set up on your machine.\n"
)


@pytest.mark.parametrize(
    ("dll", "shown"),
    [
        pytest.param(
            True,
            "C:\\> echo %PATH%\nC:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v10.2\\bin;"
            "C:\\Windows\\system32\n",
            id="windows-path",
        ),
        pytest.param(False, "$ echo $LD_LIBRARY_PATH\n/usr/local/cuda-11.0/lib64\n", id="linux"),
        pytest.param(False, _NVCC.format("11.0"), id="nvcc"),
    ],
)
def test_the_runtime_missing_beside_a_toolkit_installed_is_the_gpu_setups_failure(
    dll: bool, shown: str
) -> None:
    # Under TensorFlow's own note the runtime alone reads as a machine without a GPU; the
    # machine's own toolkit shows it was set up for one.
    asked = "cudart64_101.dll" if dll else "libcudart.so.10.1"
    alone = _top(_explain(_runtime_not_loaded(asked, dll=dll) + _CUDART_NOTE))
    assert alone.severity is Severity.INFO
    top = _top(_explain(_runtime_not_loaded(asked, dll=dll) + _CUDART_NOTE + shown))
    assert top.cause == "cuda-libs-missing" and top.severity.rank >= Severity.WARNING.rank
    assert top.fix is not None and "the CUDA toolkit installed is" in top.fix.text
    # Every line built with CUDA 10.1 (2.1 to 2.3) was built with cuDNN 7.6: the fix says so.
    assert "CUDA 10.1 toolkit and cuDNN 7.6 beside it" in top.fix.text


@pytest.mark.parametrize(
    ("shown", "raised"),
    [
        pytest.param("Please install GPU version of TF\n", True, id="gpu-check-else"),
        pytest.param("Default GPU Device: \n", True, id="gpu-check-no-name"),
        pytest.param(
            'else:\n    print("Please install GPU version of TF")\n', False, id="its-source"
        ),
    ],
)
def test_the_copied_gpu_checks_answer_says_whether_a_gpu_was_meant(
    shown: str, raised: bool
) -> None:
    # The check's else branch printed under the runtime's dlerror: the script asked for a GPU
    # and got none, as an empty list answers; its source pasted says nothing so.
    top = _top(_explain(_runtime_not_loaded("libcudart.so.11.0") + _CUDART_NOTE + shown))
    assert top.cause == "cuda-libs-missing"
    assert (top.severity.rank >= Severity.WARNING.rank) is raised


@pytest.mark.parametrize(
    "shown",
    [
        pytest.param("$ ls /usr/local/cuda/lib64/libcudart.so.10.2\n", id="command-alone"),
        pytest.param(
            "ls: cannot access '/usr/local/cuda/lib64/libcudart.so.10.2': No such file or "
            "directory\n",
            id="absent",
        ),
        pytest.param("I have libcudart.so.10.2 installed\n", id="words-without-a-path"),
    ],
)
def test_a_runtime_file_not_shown_on_the_disk_leaves_the_note(shown: str) -> None:
    top = _top(_explain(_runtime_not_loaded("libcudart.so.10.1") + _CUDART_NOTE + shown))
    assert top.severity is Severity.INFO


@pytest.mark.parametrize(
    "shown",
    [
        # A Python package's own CUDA copies (pip's nvidia-* wheels, which PyTorch pulls in on
        # any Linux machine), and files of NVIDIA's other downloads: no toolkit set up.
        pytest.param(
            "/usr/local/lib/python3.8/dist-packages/nvidia/cuda_runtime/lib/libcudart.so.12\n",
            id="pip-wheel",
        ),
        pytest.param("/usr/lib/x86_64-linux-gnu/libcudnn.so.8\n", id="cudnn"),
    ],
)
def test_another_packages_cuda_file_leaves_the_note(shown: str) -> None:
    top = _top(_explain(_runtime_not_loaded("libcudart.so.10.1") + _CUDART_NOTE + shown))
    assert top.severity is Severity.INFO


@pytest.mark.parametrize(
    "shown",
    [
        # The names on lines of their own, no ls run: the user's words, the files wanted.
        pytest.param("The files it wants:\nlibcudart.so.10.1\n", id="no-listing"),
        # ls's output, of a Python package's own copies (pip's nvidia-* wheels).
        pytest.param(
            "$ ls /usr/local/lib/python3.8/dist-packages/nvidia/cublas/lib\n"
            "libcublas.so.12  libcublasLt.so.12  libnvblas.so.12\n",
            id="pip-wheel-listed",
        ),
    ],
)
def test_library_names_that_list_no_toolkit_leave_the_note(shown: str) -> None:
    top = _top(_explain(_runtime_not_loaded("libcudart.so.10.1") + _CUDART_NOTE + shown))
    assert top.severity is Severity.INFO


def test_a_listing_of_the_toolkits_library_files_shows_a_gpu_setup() -> None:
    # ls's output, the names alone: a toolkit installed, though its directory and release
    # are not shown (from CUDA 11 every 11.x runtime is libcudart.so.11.0).
    listing = (
        "$ ls /usr/local/cuda/lib64\nlibcublas.so.11  libcudart.so  libcudart.so.11.0  "
        "libcudart_static.a\n"
    )
    top = _top(_explain(_runtime_not_loaded("libcudart.so.10.1") + _CUDART_NOTE + listing))
    assert top.cause == "cuda-libs-missing" and top.severity.rank >= Severity.WARNING.rank
    assert top.fix is not None and "CUDA 10.1" in top.fix.text
    assert "toolkit installed is" not in top.fix.text


@pytest.mark.parametrize(
    "shown",
    [
        pytest.param("\tlibcudart.so.10.1 => not found\n", id="ldd-not-found"),
        pytest.param(
            "libcudart.so.10.1: cannot open shared object file: No such file or directory\n",
            id="wrapped-dlerror",
        ),
    ],
)
def test_a_library_name_with_the_loaders_complaint_is_no_listing(shown: str) -> None:
    listing = next(s for s in load_signatures().signatures if s.id == "cuda-library-listing-shown")
    assert listing.pattern.search(shown.rstrip("\n")) is None


def test_an_issues_form_cuda_answer_is_no_toolkit_the_machine_shows() -> None:
    # The form asks every reporter for a CUDA release; the answer is the user's words (often
    # nvidia-smi's driver figure), not a toolkit a program showed: TensorFlow's note stays a
    # note, and no fix compares a toolkit with the file asked for.
    form = (
        "- OS Platform and Distribution: Windows 10\n- TensorFlow version: 2.1.0\n"
        "- CUDA/cuDNN version: 10.2 / 7.6\n\n>>> import tensorflow as tf\n"
    )
    top = _top(_explain(form + _runtime_not_loaded("cudart64_101.dll", dll=True) + _CUDART_NOTE))
    assert top.severity is Severity.INFO
    assert top.fix is None or "toolkit installed is" not in top.fix.text


def test_a_toolkit_that_serves_the_file_or_two_toolkits_name_no_other_toolkit() -> None:
    same = _top(_explain(_runtime_not_loaded("libcudart.so.11.0") + _NVCC.format("11.8")))
    assert same.fix is not None and "toolkit installed is" not in same.fix.text
    two = _NVCC.format("12.1") + _NVCC.format("10.2")
    both = _top(_explain(_runtime_not_loaded("libcudart.so.11.0") + two))
    assert both.fix is not None and "toolkit installed is" not in both.fix.text


def test_nvidia_smis_cuda_version_is_the_drivers_not_a_toolkit() -> None:
    smi = "| NVIDIA-SMI 530.30.02    Driver Version: 530.30.02    CUDA Version: 12.1     |\n"
    top = _top(_explain(_runtime_not_loaded("libcudart.so.11.0") + smi))
    assert top.fix is not None and "toolkit installed is" not in top.fix.text


_LIBCUDA_NOT_LOADED = (
    "2021-05-01 10:00:00.000001: W tensorflow/stream_executor/platform/default/dso_loader.cc:64]"
    " Could not load dynamic library 'libcuda.so.1'; dlerror: libcuda.so.1: cannot open shared "
    "object file: No such file or directory\n"
)


@pytest.mark.parametrize(
    "listed",
    [
        pytest.param("Num GPUs Available:  1\n", id="query-counts-one"),
        pytest.param(
            "2022-06-01 09:02:03.904761: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1532]"
            " Created device /job:localhost/replica:0/task:0/device:GPU:0 with 9620 MB memory:  "
            "-> device: 0, name: NVIDIA GeForce RTX 3080 Ti, pci bus id: 0000:01:00.0, compute "
            "capability: 8.6\n",
            id="device-created",
        ),
    ],
)
def test_a_gpu_tensorflow_lists_outweighs_a_libcuda_that_did_not_load(listed: str) -> None:
    report = _explain(_LIBCUDA_NOT_LOADED + listed)
    (driver,) = [x for x in report.findings if x.cause == "driver-not-loaded"]
    assert driver.severity is Severity.INFO
    assert "TensorFlow lists a GPU" in driver.detail
    # Without the GPU listed, the same line keeps its warning.
    none = _explain(_LIBCUDA_NOT_LOADED + "Num GPUs Available:  0\n")
    (kept,) = [x for x in none.findings if x.cause == "driver-not-loaded"]
    assert kept.severity.rank >= Severity.WARNING.rank


#: A pluggable device's GPU as pluggable_device_factory.cc logs it, with a plugin's own name.
_PLUGGABLE_GPU = (
    "2023-02-01 08:00:00.000001: I tensorflow/core/common_runtime/pluggable_device/"
    "pluggable_device_factory.cc:271] Created TensorFlow device (/job:localhost/replica:0/"
    "task:0/device:GPU:0 with 4096 MB memory) -> physical PluggableDevice (device: 0, name: "
    "SOMEPLUGIN, pci bus id: <undefined>)\n"
)


@pytest.mark.parametrize(
    "listed",
    [
        pytest.param(_PLUGGABLE_GPU, id="device-created"),
        pytest.param(_PLUGGABLE_GPU + "Num GPUs Available:  1\n", id="and-a-query-counts-one"),
    ],
)
def test_a_pluggable_devices_gpu_is_no_libcuda_that_answered(listed: str) -> None:
    # A plugin's GPU loads no libcuda: the libcuda that did not load is no problem of the run,
    # but the note does not say the NVIDIA driver answered.
    report = _explain(_LIBCUDA_NOT_LOADED + listed)
    (driver,) = [x for x in report.findings if x.cause == "driver-not-loaded"]
    assert driver.severity is Severity.INFO
    assert "pluggable device" in driver.detail
    assert "TensorFlow lists a GPU" not in driver.detail


def test_the_gpu_tensorflow_reached_is_read_once_and_says_whether_through_cuda() -> None:
    evidence = scan([split_text(_PLUGGABLE_GPU)], SIGNATURES)
    assert evidence.gpu_reached() is not None
    assert evidence.gpu_reached(cuda=True) is None
    # gpu_device.cc's line cut before the device's description is CUDA's all the same.
    cuda = scan(
        [
            split_text(
                "2022-06-01 09:02:03.904761: I tensorflow/core/common_runtime/gpu/gpu_device.cc:"
                "1532] Created device /job:localhost/replica:0/task:0/device:GPU:0 with 9620 MB"
                " memory\n"
            )
        ],
        SIGNATURES,
    )
    reached = cuda.gpu_reached(cuda=True)
    assert reached is not None and reached == cuda.gpu_reached()


def test_on_macos_a_log_that_names_the_plugin_is_not_called_without_it() -> None:
    text = (
        "Successfully installed tensorflow-2.16.1 tensorflow-metal-1.1.0\n"
        "Platform: macOS-14.2-arm64-arm-64bit\n" + _ASKED + "[]\n"
    )
    assert all(x.cause != "package-not-installed" for x in _explain(text).findings)


def test_a_users_words_that_the_cpu_is_used_give_way_to_a_created_gpu_device() -> None:
    text = (
        "My data augmentation only uses the CPU, which is expected since tf.data runs there.\n"
        "2024-01-01 00:00:00.000000: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1886] "
        "Created device /job:localhost/replica:0/task:0/device:GPU:0 with 9620 MB memory:  -> "
        "device: 0, name: NVIDIA GeForce RTX 3080, pci bus id: 0000:01:00.0, compute "
        "capability: 8.6\n"
    )
    assert all(x.severity.rank < Severity.WARNING.rank for x in _explain(text).findings)


# --- the other candidates of an empty list: each a warning of its own cause ------------------


def _others(report: Report) -> list[tuple[str, Severity]]:
    return [(x.cause or "", x.severity) for x in report.findings if x.summary.startswith("Or: ")]


def test_ranked_candidates_follow_the_reading_each_with_its_own_fix() -> None:
    text = (
        '(venv) me@box:~$ python3 -c "import tensorflow as tf; '
        "print(tf.config.list_physical_devices('GPU'))\"\n[]"
    )
    report = _explain(text)
    assert _top(report).cause == "cuda-libs-missing"
    # The reading's candidates after the first, in its order, each a warning.
    assert _others(report) == [
        ("driver-not-loaded", Severity.WARNING),
        ("tf-cpu-only-build", Severity.WARNING),
        ("cuda-visible-devices-hidden", Severity.WARNING),
    ]
    hidden = next(x for x in report.findings if x.cause == "cuda-visible-devices-hidden")
    assert hidden.fix is not None and "CUDA_VISIBLE_DEVICES" in hidden.fix.text


def test_a_decided_reading_has_no_other_candidates() -> None:
    text = "/home/me/env/lib/python3.11/site-packages\ntf.test.is_built_with_cuda(): False\n"
    assert _others(_explain(text)) == []


# --- CUDA_VISIBLE_DEVICES set where the log shows it ----------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        pytest.param("export CUDA_VISIBLE_DEVICES=2\n", "2", id="export"),
        pytest.param("$ CUDA_VISIBLE_DEVICES=-1 python train.py\n", "-1", id="prefix"),
        pytest.param("os.environ['CUDA_VISIBLE_DEVICES'] = '2'\n", "2", id="python"),
        pytest.param('os.environ["CUDA_VISIBLE_DEVICES"]=""\n', "", id="python-empty"),
        pytest.param("%env CUDA_VISIBLE_DEVICES=0,1\n", "0,1", id="ipython"),
        pytest.param('echo "CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES"\n', None, id="echoed"),
        pytest.param("CUDA_VISIBLE_DEVICES: 0\n", None, id="not-set"),
        pytest.param('if os.environ["CUDA_VISIBLE_DEVICES"] == "1":\n', None, id="compared"),
        pytest.param('CUDA_VISIBLE_DEVICES="$GPU" python x.py\n', None, id="quoted-variable"),
        pytest.param("CUDA_VISIBLE_DEVICES=${GPU} python x.py\n", None, id="braced-variable"),
        pytest.param(
            "CUDA_VISIBLE_DEVICES=GPU-8932f937-d72c python x.py\n", "GPU-8932f937-d72c", id="uuid"
        ),
    ],
)
def test_the_visible_devices_a_log_sets_are_read(text: str, value: Optional[str]) -> None:
    assert visible_devices_set(text) == value


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        pytest.param(
            "No registered 'Cast' OpKernel for 'GPU' devices compatible with node {{node Cast}}\n"
            "\t (OpKernel was found, but attributes didn't match) Requested Attributes: "
            "SrcT=DT_STRING\n",
            True,
            id="op-kernel-words",
        ),
        pytest.param(
            "No OpKernel was registered to support Op 'Mul' with these attrs.  Registered "
            "devices: [CPU], Registered kernels:\n  device='CPU'; T in [DT_FLOAT]\n",
            True,
            id="1x-kernel-of-a-registered-device",
        ),
        pytest.param(
            "No OpKernel was registered to support Op 'CudnnRNN' with these attrs.  Registered "
            "devices: [CPU], Registered kernels:\n  device='GPU'; T in [DT_FLOAT]\n",
            False,
            id="1x-kernel-of-a-device-not-registered",
        ),
        pytest.param(
            "No OpKernel was registered to support Op 'MatrixSolve' used by {{node MatrixSolve}} "
            "with these attrs: [T=DT_HALF, adjoint=false]\nRegistered devices: [CPU, GPU]\n"
            "Registered kernels:\n  device='XLA_GPU_JIT'; T in [DT_FLOAT, DT_DOUBLE, DT_HALF]\n"
            "  device='GPU'; T in [DT_FLOAT]\n",
            True,
            id="2x-kernel-of-a-registered-device",
        ),
        pytest.param(
            "No OpKernel was registered to support Op 'NcclAllReduce' used by {{node "
            "NcclAllReduce}}with these attrs: [T=DT_FLOAT]\nRegistered devices: [CPU, GPU, "
            "XLA_CPU, XLA_GPU]\nRegistered kernels:\n  <no registered kernels>\n",
            False,
            id="2x-no-kernel",
        ),
    ],
)
def test_a_kernel_refusing_the_attributes_on_a_registered_device_is_read(
    text: str, refused: bool
) -> None:
    assert kernel_refused_attrs(text) is refused


def test_visible_devices_set_put_the_hidden_gpus_first() -> None:
    text = (
        "os.environ['CUDA_VISIBLE_DEVICES'] = '2'\n"
        "InvalidArgumentError: No OpKernel was registered to support Op 'ShiftOp' with these "
        "attrs.  Registered devices: [CPU], Registered kernels:\n"
        "  device='GPU'; T in [DT_FLOAT]\n"
    )
    report = _explain(text)
    top = next(x for x in report.findings if x.summary == "TensorFlow lists no GPU")
    assert top.cause == "cuda-visible-devices-hidden"
    assert top.fix is not None and "CUDA_VISIBLE_DEVICES=2" in top.fix.text
    # Not decided (the index may exist): the others follow as candidates.
    assert top.severity is Severity.WARNING and _others(report)


def test_visible_devices_naming_gpu_0_first_do_not_lead() -> None:
    # GPU 0 exists wherever a GPU does: setting the variable to it hides none.
    text = (
        "os.environ['CUDA_VISIBLE_DEVICES'] = '0'\n"
        "InvalidArgumentError: No OpKernel was registered to support Op 'ShiftOp' with these "
        "attrs.  Registered devices: [CPU], Registered kernels:\n"
        "  device='GPU'; T in [DT_FLOAT]\n"
    )
    top = next(x for x in _explain(text).findings if x.summary == "TensorFlow lists no GPU")
    assert top.cause != "cuda-visible-devices-hidden"


def test_a_cuda_11_0_toolkit_serves_only_the_builds_of_its_sonames() -> None:
    # CUDA 11.0 ships libcusolver.so.10; the 11.1+ builds (TensorFlow 2.5 on) ask for
    # libcusolver.so.11 (data/cuda.yaml's sonames): only 2.4, built for 11.0, runs on it.
    top = _top(_explain(_runtime_not_loaded("libcudart.so.10.1") + _NVCC.format("11.0")))
    assert top.fix is not None
    assert "built for CUDA 11.0 (up to TensorFlow 2.4." in top.fix.text, top.fix.text


@pytest.mark.parametrize(
    "listing",
    [
        pytest.param(
            "$ pip list | grep tensorflow\ntensorflow-cpu               2.16.1\n"
            "tensorflow-io-gcs-filesystem 0.36.0\n",
            id="pip-list",
        ),
        pytest.param(
            "$ pip show tensorflow-cpu\nName: tensorflow-cpu\nVersion: 2.15.1\n",
            id="pip-show",
        ),
    ],
)
def test_the_cpu_build_a_package_listing_shows_decides_an_empty_gpu_list(listing: str) -> None:
    # Observed beats inferred: tensorflow-cpu installed has no CUDA, whatever the system.
    text = listing + ">>> tf.config.list_physical_devices('GPU')\n[]\n"
    top = top_error(explained(text))
    assert top.cause == "tf-cpu-only-build", [
        (x.id, x.severity.value) for x in explained(text).findings
    ]
    assert "uninstall -y tensorflow-cpu" in fix_text(top)


@pytest.mark.parametrize(
    "listing",
    [
        pytest.param(
            "$ pip uninstall -y tensorflow-cpu\n"
            "Found existing installation: tensorflow-cpu 2.10.0\n"
            "Uninstalling tensorflow-cpu-2.10.0:\n"
            "  Successfully uninstalled tensorflow-cpu-2.10.0\n"
            "$ pip install tensorflow==2.10.0\n"
            "Successfully installed tensorflow-2.10.0\n",
            id="pip-removed-it",
        ),
        pytest.param(
            "$ pip show tensorflow-cpu\nWARNING: Package(s) not found: tensorflow-cpu\n",
            id="pip-show-not-found",
        ),
    ],
)
def test_a_cpu_build_pip_removed_or_did_not_find_decides_nothing(listing: str) -> None:
    text = listing + ">>> tf.config.list_physical_devices('GPU')\n[]\n"
    report = explained(text)
    assert not any(
        x.cause == "tf-cpu-only-build" and x.severity.rank > Severity.WARNING.rank
        for x in report.findings
    ), [(x.id, x.severity.value) for x in report.findings]
