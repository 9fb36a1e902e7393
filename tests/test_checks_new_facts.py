"""Checks on the facts real failures turn on: PCI and kernel module, cuInit, emulation, XLA's
toolchain, TensorFlow's stderr, where ``import tensorflow`` resolves, other frameworks' pins."""

from __future__ import annotations

import dataclasses
import shlex

import pytest

from tests import factories as f
from tfdoctor import causes
from tfdoctor.checks import run_checks, select_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.facts import (
    CuInitFacts,
    DeviceNode,
    DriverFacts,
    Facts,
    LibraryCandidate,
    LibraryFacts,
    NvidiaKernelFacts,
    PciDevice,
    ProbeError,
)
from tfdoctor.findings import Finding, Severity
from tfdoctor.machine import Machine

A100 = PciDevice("0000:07:00.0", "0x20b2", "0x030200", None)
NOT_LOADED = DriverFacts(
    "none", error=ProbeError("driver", "library-not-found", "libnvidia-ml.so.1 was not found")
)


def judge(check_id: str, facts: Facts) -> list[Finding]:
    return list(run_checks(CheckContext(facts, f.FIXTURE_MATRIX), select_checks([check_id])))


def kernel(**kw: object) -> NvidiaKernelFacts:
    base: dict[str, object] = {"pci_devices": (A100,), "pci_source": "sysfs", "modules": ()}
    base.update(kw)
    return NvidiaKernelFacts(**base)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("nvidia_kernel", "command"),
    [
        pytest.param(kernel(), "sudo modprobe nvidia", id="module-not-loaded"),
        pytest.param(
            kernel(modules=("nouveau",)),
            'echo "blacklist nouveau" | sudo tee /etc/modprobe.d/blacklist-nouveau.conf',
            id="nouveau-holds-the-gpu",
        ),
        pytest.param(
            kernel(secure_boot=True),
            "sudo update-secureboot-policy --enroll-key",
            id="secure-boot",
        ),
        pytest.param(
            kernel(dkms=("nvidia/550.54.15, 6.5.0-14-generic, x86_64: installed",)),
            "sudo dkms autoinstall",
            id="dkms-for-another-kernel",
        ),
    ],
)
def test_a_gpu_on_the_bus_without_the_module(
    nvidia_kernel: NvidiaKernelFacts, command: str
) -> None:
    facts = f.facts(
        driver=NOT_LOADED,
        platform=f.platform(nvidia_device_nodes=()),
        nvidia_kernel=nvidia_kernel,
        tensorflow=f.tensorflow(devices=()),
    )
    (finding,) = judge("driver.nvidia", facts)
    assert (finding.severity, finding.cause) == (Severity.ERROR, "driver-not-loaded")
    assert finding.fix is not None and finding.fix.commands[0] == command


@pytest.mark.parametrize(
    ("os_name", "rebuild"),
    [
        pytest.param("Ubuntu 22.04.4 LTS", "sudo update-initramfs -u", id="ubuntu"),
        pytest.param("Fedora Linux 40 (Workstation Edition)", "sudo dracut --force", id="fedora"),
        pytest.param("Rocky Linux 9.4 (Blue Onyx)", "sudo dracut --force", id="rocky"),
        pytest.param("openSUSE Leap 15.6", "sudo dracut --force", id="opensuse"),
        pytest.param("", "sudo update-initramfs -u", id="unknown"),
    ],
)
def test_nouveaus_initramfs_is_rebuilt_with_the_distributions_tool(
    os_name: str, rebuild: str
) -> None:
    # update-initramfs is Debian's; Fedora, RHEL and SUSE build theirs with dracut.
    facts = f.facts(
        driver=NOT_LOADED,
        platform=f.platform(nvidia_device_nodes=(), os_name=os_name),
        nvidia_kernel=kernel(modules=("nouveau",)),
        tensorflow=f.tensorflow(devices=()),
    )
    (finding,) = judge("driver.nvidia", facts)
    assert finding.fix is not None
    # The reboot only once the rebuild succeeded: after a failed one nouveau still loads.
    [line] = finding.fix.commands[1:]
    assert line.startswith(f"{rebuild} && sudo reboot")


def test_a_device_node_this_user_cannot_open() -> None:
    facts = f.facts(
        driver=NOT_LOADED,
        nvidia_kernel=kernel(
            modules=("nvidia", "nvidia_uvm"),
            device_nodes=(DeviceNode("/dev/nvidia0", False), DeviceNode("/dev/nvidiactl", True)),
        ),
    )
    (finding,) = judge("driver.nvidia", facts)
    assert finding.cause == "driver-no-permission"
    assert "/dev/nvidia0" in finding.summary


def test_a_container_sees_the_host_bus_but_is_not_a_broken_driver() -> None:
    facts = f.facts(
        driver=NOT_LOADED,
        platform=f.platform(nvidia_device_nodes=(), container="docker"),
        nvidia_kernel=kernel(modules=("nvidia",)),
    )
    assert [x.severity for x in judge("driver.nvidia", facts)] == [Severity.INFO]


@pytest.mark.parametrize(
    ("code", "cause", "command"),
    [
        pytest.param(999, "cuinit-unknown-error", "sudo modprobe nvidia_uvm", id="999"),
        pytest.param(35, "driver-too-old", "nvidia-smi", id="35"),
    ],
)
def test_cuinit_codes_name_their_cause(code: int, cause: str, command: str) -> None:
    facts = f.facts(
        cuinit=CuInitFacts("error", code=code, name="x"),
        tensorflow=f.tensorflow(devices=(), cuda_version="13.9"),
    )
    (finding,) = judge("gpu.visible", facts)
    assert finding.cause == cause
    assert finding.fix is not None
    assert any(command in c for c in finding.fix.commands) or command in finding.fix.text


STUB = "/usr/local/cuda-12.4/targets/x86_64-linux/lib/stubs/libcuda.so.1"


@pytest.mark.parametrize(
    ("cuinit", "ld_path", "log", "command"),
    [
        pytest.param(  # the stub's directory first on LD_LIBRARY_PATH: it comes off
            CuInitFacts("error", code=34, name="CUDA_ERROR_STUB_LIBRARY", library=STUB),
            "/usr/local/cuda-12.4/targets/x86_64-linux/lib/stubs:/opt/lib",
            (),
            "export LD_LIBRARY_PATH=/opt/lib",
            id="ld-library-path",
        ),
        pytest.param(  # served by ldconfig: the configuration that names it is where to look
            CuInitFacts("error", code=34, name="CUDA_ERROR_STUB_LIBRARY", library=STUB),
            "",
            (),
            "grep -rl stubs /etc/ld.so.conf.d/",
            id="ldconfig",
        ),
        pytest.param(  # only TensorFlow's log tells: the bare number it prints
            None,
            "",
            ("E cuda_driver.cc:282] failed call to cuInit: UNKNOWN ERROR (34)",),
            "ldconfig -p | grep libcuda.so.1",
            id="log-only",
        ),
    ],
)
def test_the_toolkits_stub_libcuda_is_named_with_where_it_comes_from(
    cuinit: CuInitFacts | None, ld_path: str, log: tuple[str, ...], command: str
) -> None:
    facts = f.facts(
        cuinit=cuinit,
        environment={"PATH": "/usr/bin:/bin", "LD_LIBRARY_PATH": ld_path},
        tensorflow=f.tensorflow(devices=(), cuda_version="12.3", log_errors=log),
    )
    (finding,) = judge("gpu.visible", facts)
    assert finding.cause == "libcuda-stub"
    assert finding.fix is not None
    assert command in finding.fix.commands, finding.fix.commands


@pytest.mark.parametrize(
    ("stderr", "cause", "names"),
    [
        # TF 1.14-2.1 said "Could not dlopen library", at info level, and no summary line.
        pytest.param(
            "2020-02-04 15:57:41.076301: I tensorflow/stream_executor/platform/default/"
            "dso_loader.cc:53] Could not dlopen library 'cudnn64_7.dll'; dlerror: cudnn64_7.dll "
            "not found",
            "cuda-libs-missing",
            "cudnn64_7.dll",
            id="dlopen-tf1.14",
        ),
        # Forward compatibility (cuda-compat) on a GPU that does not support it.
        pytest.param(
            "E0000 00:00:1744708234.717753 1370911 cuda_driver.cc:282] failed call to cuInit: "
            "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE: forward compatibility was attempted on "
            "non supported HW",
            "driver-too-old",
            "driver is too old",
            id="compat-not-supported",
        ),
        # absl's wording names the CUresult by number only.
        pytest.param(
            "E0000 00:00:1795971381.226757    3751 cuda_platform.cc:52] failed call to cuInit: "
            "INTERNAL: CUDA error: Failed call to cuInit: UNKNOWN ERROR (999)",
            "cuinit-unknown-error",
            "CUDA_ERROR_UNKNOWN (999)",
            id="cuinit-999-by-number",
        ),
    ],
)
def test_gpu_visible_reads_tensorflows_stderr_through_the_shared_reader(
    stderr: str, cause: str, names: str
) -> None:
    # Only the stderr the probe keeps, no log_errors: the events are read from the text.
    facts = f.facts(tensorflow=f.tensorflow(devices=(), stderr_tail=stderr))
    (finding,) = judge("gpu.visible", facts)
    assert finding.cause == cause
    assert names in finding.summary


def test_qemu_emulation_names_the_native_image() -> None:
    facts = f.facts(platform=f.platform(emulation="qemu", host_machine="aarch64"))
    (finding,) = judge("platform.rosetta", facts)
    assert finding.cause == "cpu-emulated"
    assert finding.fix is not None
    assert finding.fix.commands == ("docker run --platform linux/arm64 ...",)
    assert judge("cpu.avx", f.facts(platform=facts.platform, cpu=f.cpu(flags=()))) == []


@pytest.mark.parametrize(
    ("ptxas", "driver_cuda", "log", "severity"),
    [
        pytest.param("12.5.82", "12.4", "", Severity.OK, id="newer-minor-is-fine"),
        pytest.param("13.0.48", "12.4", "", Severity.WARNING, id="newer-major"),
        pytest.param(
            "12.5.82",
            "12.4",
            "The NVIDIA driver's CUDA version is 12.4 which is older than the PTX compiler "
            "version 12.5.82.",
            Severity.WARNING,
            id="xla-says-so",
        ),
    ],
)
def test_ptxas_against_the_driver(
    ptxas: str, driver_cuda: str, log: str, severity: Severity
) -> None:
    facts = f.facts(
        cuda_libs=f.cuda_libs().__class__(
            **{**f.cuda_libs().__dict__, "ptxas": "/usr/bin/ptxas", "ptxas_version": ptxas}
        ),
        driver=f.driver(cuda_version=driver_cuda),
        tensorflow=f.tensorflow(log_errors=(log,) if log else ()),
    )
    (finding,) = judge("xla.ptxas", facts)
    assert finding.severity is severity
    if severity is Severity.WARNING:
        assert finding.cause == "ptxas-too-new"


def test_libdevice_is_judged_only_on_evidence() -> None:
    assert judge("xla.libdevice", f.facts()) == []
    logged = f.facts(
        tensorflow=f.tensorflow(
            log_errors=("libdevice not found at ./libdevice.10.bc",),
        )
    )
    (finding,) = judge("xla.libdevice", logged)
    assert (finding.severity, finding.cause) == (Severity.ERROR, "libdevice-missing")
    assert finding.fix is not None
    assert finding.fix.commands == ('/opt/venv/bin/python -m pip install "nvidia-cuda-nvcc-cu12"',)


LIBDEVICE_LOG = f.tensorflow(
    log_errors=("Can't find libdevice directory ${CUDA_DIR}/nvvm/libdevice",),
)


def test_libdevice_only_where_xla_does_not_look_is_pointed_at_keeping_other_flags() -> None:
    libs = dataclasses.replace(
        f.cuda_libs(), libdevice="/opt/cuda-12.3/nvvm/libdevice/libdevice.10.bc"
    )
    env = {"PATH": "/usr/bin:/bin", "XLA_FLAGS": "--xla_gpu_autotune_level=0"}
    facts = f.facts(cuda_libs=libs, tensorflow=LIBDEVICE_LOG, environment=env)
    (finding,) = judge("xla.libdevice", facts)
    assert (finding.severity, finding.cause) == (Severity.ERROR, "libdevice-missing")
    assert "/opt/cuda-12.3/nvvm/libdevice/libdevice.10.bc" in finding.detail
    assert finding.fix is not None
    (command,) = finding.fix.commands
    assert command == (
        "export XLA_FLAGS='--xla_gpu_autotune_level=0 --xla_gpu_cuda_data_dir=/opt/cuda-12.3'"
    )
    # Applied: XLA_FLAGS as the command sets it, and the cause is gone.
    fixed_env = {**env, "XLA_FLAGS": shlex.split(command.split("=", 1)[1])[0]}
    assert judge("xla.libdevice", dataclasses.replace(facts, environment=fixed_env)) == []


@pytest.mark.parametrize(
    "root",
    ["/usr/local/cuda", f"{f.SITE}/nvidia/cuda_nvcc"],
    ids=["toolkit", "nvcc-wheel"],
)
def test_libdevice_where_xla_looks_needs_no_flag(root: str) -> None:
    libs = dataclasses.replace(f.cuda_libs(), libdevice=f"{root}/nvvm/libdevice/libdevice.10.bc")
    facts = f.facts(cuda_libs=libs, tensorflow=LIBDEVICE_LOG)
    assert judge("xla.libdevice", facts) == []


def test_the_libdevice_fix_never_names_a_directory_xla_searches() -> None:
    # Nothing found and nothing known of the build: the wheel, or $CUDA_HOME (which XLA does
    # not search), never /usr/local/cuda (which it does).
    facts = f.facts(tensorflow=LIBDEVICE_LOG)
    machine = Machine(dataclasses.replace(facts, tensorflow=None, packages=()), None)
    fix = causes.xla.libdevice_fix(machine)
    assert "nvidia-cuda-nvcc" in fix.text
    assert fix.commands == (causes.xla.XLA_AT_CUDA_HOME,)
    assert "/usr/local/cuda" not in " ".join(fix.commands)


def test_a_data_dir_without_libdevice_in_a_conda_environment_is_replaced_by_its_own() -> None:
    # The log showed XLA_FLAGS naming another environment's directory; in a conda environment
    # the fix copies libdevice into its own lib (TensorFlow's guide for conda) and names that.
    facts = f.facts(python=f.python(env_kind="conda"), tensorflow=LIBDEVICE_LOG)
    fix = causes.xla.libdevice_fix(Machine(facts, None), "/opt/conda/envs/old/lib")
    assert "--xla_gpu_cuda_data_dir=/opt/conda/envs/old/lib" in fix.text
    assert "activate script" in fix.text
    assert fix.commands[-1].count("--xla_gpu_cuda_data_dir=") == 2  # one removed, one set
    assert fix.commands[-1].endswith('--xla_gpu_cuda_data_dir=$CONDA_PREFIX/lib"')
    assert "cp $CONDA_PREFIX/lib/libdevice.10.bc $CONDA_PREFIX/lib/nvvm/libdevice/" in fix.commands


def test_the_real_message_in_stderr_is_recognised() -> None:
    tf = f.tensorflow(
        status="import-error",
        error_type="ImportError",
        error_message="DLL load failed while importing _pywrap_tensorflow_internal",
        stderr_tail="",
    )
    generic = f.tensorflow(
        status="import-error",
        error_type="SystemError",
        error_message="initialization of _pywrap_tensorflow_internal raised unreported exception",
        stderr_tail="ImportError: libcudnn.so.8: cannot open shared object file: No such file",
    )
    assert judge("tensorflow.import", f.facts(tensorflow=tf))[0].cause == "msvc-runtime-missing"
    (finding,) = judge("tensorflow.import", f.facts(tensorflow=generic))
    assert finding.cause == "cuda-libs-missing"
    assert "--force-reinstall" not in str(finding.fix)


@pytest.mark.parametrize(
    ("origin", "kind", "shadowed"),
    [
        pytest.param("/home/u/proj/tensorflow.py", "working-directory", True, id="cwd-module"),
        pytest.param("/home/u/libs/tensorflow", "PYTHONPATH", True, id="pythonpath-folder"),
        pytest.param(f"{f.SITE}/tensorflow", "site-packages", False, id="installed"),
    ],
)
def test_where_import_tensorflow_resolves(origin: str, kind: str, shadowed: bool) -> None:
    facts = f.facts(
        python=f.python(
            tensorflow_origin=origin,
            tensorflow_path_kind=kind,
            tensorflow_path_entry=origin.rsplit("/", 1)[0],
        ),
        tensorflow=f.tensorflow(status="signal", signal="SIGSEGV"),
    )
    (finding,) = judge("tensorflow.import", facts)
    assert (finding.cause == "tf-shadowed-module") is shadowed


def test_another_framework_pulling_other_cuda_wheels_is_named() -> None:
    facts = f.facts(
        packages=f.packages(
            f.pkg("nvidia-cudnn-cu12", "9.1.0.70"),
            f.pkg("torch", "2.4.0", "nvidia-cudnn-cu12==9.1.0.70"),
        )
    )
    (finding,) = judge("cuda.versions", facts)
    assert finding.cause == "cuda-wheel-pins"
    assert finding.fix is not None and "torch 2.4.0" in finding.fix.text
    # TensorFlow's pin back in place would break torch: each framework its own environment.
    commands = " ".join(finding.fix.commands)
    assert "-m venv" in commands and 'install "nvidia-cudnn-cu12==' not in commands, commands


def test_without_tensorflow_gpu_visibility_is_not_applicable_not_unknown() -> None:
    facts = f.facts(
        packages=(f.pkg("numpy", "1.26.4"),),
        tensorflow=f.tensorflow(status="not-installed", version=None),
    )
    (finding,) = judge("gpu.visible", facts)
    assert finding.severity is Severity.INFO
    assert "Not applicable" in finding.summary


@pytest.mark.parametrize(
    ("status", "stderr", "cause"),
    [
        ("child-error", "PyBfloat16_Type.tp_base != nullptr", "dependency-out-of-range"),
        (
            "import-error",
            "ImportError: /usr/lib/aarch64-linux-gnu/libgomp.so.1: cannot allocate memory in "
            "static TLS block",
            "static-tls-exhausted",
        ),
    ],
)
def test_an_import_failure_no_rule_names_is_read_with_explains_signatures(
    status: str, stderr: str, cause: str
) -> None:
    tf = f.tensorflow(
        status=status,
        version=None,
        error_type="ImportError" if status == "import-error" else None,
        error_message=stderr.split(": ", 1)[1] if status == "import-error" else None,
        stderr_tail=stderr,
    )
    (finding,) = judge("tensorflow.import", f.facts(tensorflow=tf))
    assert (finding.severity, finding.cause) == (Severity.ERROR, cause)
    assert finding.fix is not None and finding.fix.commands


def test_an_import_failure_nothing_recognises_stays_unknown() -> None:
    tf = f.tensorflow(status="child-error", version=None, stderr_tail="something odd happened")
    (finding,) = judge("tensorflow.import", f.facts(tensorflow=tf))
    assert finding.severity is Severity.UNKNOWN


def _old_release(*libraries: LibraryFacts, log: tuple[str, ...] = ()) -> Facts:
    """TensorFlow 0.10.0 (older than every matrix line), built for CUDA 7.5 and cuDNN 5 by
    its own record, on Python 2.7."""
    return f.facts(
        python=f.python(version="2.7.12"),
        packages=(f.pkg("tensorflow", "0.10.0"),),
        cuda_libs=f.cuda_libs(*libraries),
        tensorflow=f.tensorflow(
            version="0.10.0", cuda_version="7.5", cudnn_version="5", log_errors=log
        ),
    )


def test_a_release_older_than_the_matrix_is_judged_by_its_own_build_record() -> None:
    cudnn4 = f.lib(
        "cudnn",
        "libcudnn.so",
        LibraryCandidate(
            "/usr/local/cuda/lib64/libcudnn.so", "LD_LIBRARY_PATH", "4.0.7", "call", True
        ),
    )
    (finding,) = judge("cuda.versions", _old_release(cudnn4))
    assert finding.cause == "cudnn-version-mismatch"
    assert "TensorFlow 0.10.0 was built with cuDNN 5" in finding.summary
    # A cuDNN 5 beside it: nothing to say.
    cudnn5 = f.lib(
        "cudnn",
        "libcudnn.so",
        LibraryCandidate(
            "/usr/local/cuda/lib64/libcudnn.so", "LD_LIBRARY_PATH", "5.1.3", "call", True
        ),
    )
    assert judge("cuda.versions", _old_release(cudnn5)) == []


def test_tensorflows_own_word_on_the_cudnn_it_loaded_is_a_mismatch() -> None:
    # No library probe answer for cuDNN; TensorFlow 1.x printed the versions as integers.
    said = (
        "E tensorflow/stream_executor/cuda/cuda_dnn.cc:347] Loaded runtime CuDNN library: 4007 "
        "(compatibility version 4000) but source was compiled with 5103 (compatibility "
        "version 5100).",
    )
    cudart = f.lib("cudart", "libcudart.so", f.pip_cand("libcudart.so", "7.5"))
    (finding,) = judge("cuda.versions", _old_release(cudart, log=said))
    assert finding.cause == "cudnn-version-mismatch"
    assert "loaded cuDNN 4.0.7 but was built with cuDNN 5.1.3" in finding.summary


def test_python_2_on_a_release_that_published_python_2_wheels_is_no_error() -> None:
    # TensorFlow 1.10.0's files on PyPI include cp27 for Linux (the matrix's early rows).
    facts = f.facts(
        python=f.python(version="2.7.12"),
        packages=(f.pkg("tensorflow", "1.10.0"),),
        tensorflow=f.tensorflow(version="1.10.0"),
    )
    (finding,) = judge("tensorflow.python", facts)
    assert finding.severity is Severity.OK
    # One older than the matrix knows anything of: unknown, never "no wheels".
    old = dataclasses.replace(facts, packages=(f.pkg("tensorflow", "0.10.0"),))
    (finding,) = judge("tensorflow.python", old)
    assert finding.severity is Severity.UNKNOWN
    assert "older than every line" in finding.summary


@pytest.mark.parametrize(
    ("tf_version", "severity"),
    [
        # Keras 3 (tf.keras from 2.16) compiles fit with XLA on a GPU by default.
        pytest.param("2.16.1", Severity.WARNING, id="keras-3"),
        # Keras 2.11's optimizers compile their step with XLA on a GPU by default.
        pytest.param("2.11.0", Severity.WARNING, id="keras-2.11-optimizers"),
        pytest.param("2.15.1", Severity.WARNING, id="keras-2.15"),
        # Before 2.11 only code that asks uses XLA: other code runs.
        pytest.param("2.6.0", Severity.INFO, id="before-2.11"),
    ],
)
def test_libdevice_off_xlas_path_without_a_logged_failure_weighs_who_uses_xla(
    tf_version: str, severity: Severity
) -> None:
    libs = dataclasses.replace(
        f.cuda_libs(),
        libdevice="/usr/local/cuda-11.4/nvvm/libdevice/libdevice.10.bc",
        ptxas="/usr/local/cuda-11.4/bin/ptxas",
    )
    tf = f.pkg("tensorflow", tf_version, top_level=("tensorflow",))
    facts = f.facts(packages=(tf, f.pkg("numpy", "1.26.4")), cuda_libs=libs)
    (finding,) = judge("xla.libdevice", facts)
    assert finding.severity is severity


@pytest.mark.parametrize(
    ("os_name", "os_ids", "dkms", "commands"),
    [
        # Ubuntu's DKMS signs with shim-signed's MOK, which update-secureboot-policy enrolls.
        pytest.param(
            "Ubuntu 22.04.4 LTS",
            ("ubuntu", "debian"),
            (),
            ("sudo update-secureboot-policy --enroll-key", "sudo reboot"),
            id="ubuntu",
        ),
        # Linux Mint is Ubuntu underneath (ID_LIKE): Ubuntu's key and tool.
        pytest.param(
            "Linux Mint 21.3",
            ("linuxmint", "ubuntu", "debian"),
            (),
            ("sudo update-secureboot-policy --enroll-key", "sudo reboot"),
            id="mint",
        ),
        # Debian's DKMS generates its own key in /var/lib/dkms.
        pytest.param(
            "Debian GNU/Linux 12 (bookworm)",
            ("debian",),
            (),
            ("sudo mokutil --import /var/lib/dkms/mok.pub", "sudo reboot"),
            id="debian",
        ),
        # RPM Fusion's akmods signs with the key kmodgenca made.
        pytest.param(
            "Fedora Linux 40 (Workstation Edition)",
            ("fedora",),
            (),
            (
                "sudo kmodgenca -a",
                "sudo mokutil --import /etc/pki/akmods/certs/public_key.der",
                "sudo reboot",
            ),
            id="fedora-akmods",
        ),
        # On Rocky Linux a module DKMS built (NVIDIA's repository) carries DKMS's key.
        pytest.param(
            "Rocky Linux 9.3 (Blue Onyx)",
            ("rocky", "rhel", "centos", "fedora"),
            ("nvidia/550.54.15, 5.14.0-362.8.1.el9_3.x86_64, x86_64: installed",),
            ("sudo mokutil --import /var/lib/dkms/mok.pub", "sudo reboot"),
            id="rocky-dkms",
        ),
    ],
)
def test_secure_boot_enrolls_the_key_of_the_distributions_module_builder(
    os_name: str, os_ids: tuple[str, ...], dkms: tuple[str, ...], commands: tuple[str, ...]
) -> None:
    facts = f.facts(
        driver=NOT_LOADED,
        platform=f.platform(
            nvidia_device_nodes=(), os_name=os_name, os_ids=os_ids, release="5.14.0"
        ),
        nvidia_kernel=kernel(secure_boot=True, dkms=dkms),
        tensorflow=f.tensorflow(devices=()),
    )
    (finding,) = judge("driver.nvidia", facts)
    assert (finding.severity, finding.cause) == (Severity.ERROR, "driver-not-loaded")
    assert finding.fix is not None and finding.fix.commands == commands


def test_secure_boot_on_an_unknown_distribution_lists_the_builders_keys() -> None:
    """Without a distribution to go by, the fix names each builder's key file and how to
    tell which one signed the module, never one path as if it were certain."""
    facts = f.facts(
        driver=NOT_LOADED,
        platform=f.platform(nvidia_device_nodes=(), os_name="Linux"),
        nvidia_kernel=kernel(secure_boot=True),
        tensorflow=f.tensorflow(devices=()),
    )
    (finding,) = judge("driver.nvidia", facts)
    assert finding.fix is not None
    listing = finding.fix.commands[0]
    for key in (
        "/var/lib/dkms/mok.pub",
        "/var/lib/shim-signed/mok/MOK.der",
        "/etc/pki/akmods/certs/public_key.der",
    ):
        assert key in listing
    assert "modinfo -F signer nvidia" in finding.fix.commands


@pytest.mark.parametrize(
    ("os_name", "command", "module_line"),
    [
        (
            "Ubuntu 22.04.4 LTS",
            "sudo apt-get install --reinstall libnvidia-compute-535",
            "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.129.03  "
            "Thu Oct 19 18:56:32 UTC 2023",
        ),
        # Debian's driver packages name the libraries otherwise (libcuda1, libnvidia-ml1):
        # apt, but no libnvidia-compute-<branch> (Machine.ubuntu, not Machine.packager).
        (
            "Debian GNU/Linux 12 (bookworm)",
            None,
            "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.129.03  "
            "Thu Oct 19 18:56:32 UTC 2023",
        ),
        (
            "Rocky Linux 9.3 (Blue Onyx)",
            None,
            "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.129.03  "
            "Thu Oct 19 18:56:32 UTC 2023",
        ),
        # The open kernel modules name themselves "Open Kernel Module for <arch>".
        (
            "Ubuntu 22.04.4 LTS",
            "sudo apt-get install --reinstall libnvidia-compute-535",
            "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  535.129.03  "
            "Release Build  (dvs-builder@U16-I3-B03-4-3)  Thu Oct 19 18:42:05 UTC 2023",
        ),
    ],
)
def test_a_loaded_module_without_its_libraries_gets_them_reinstalled(
    os_name: str, command: str | None, module_line: str
) -> None:
    """The module is loaded and its device nodes exist, but libnvidia-ml.so.1 is missing: the
    fix reinstalls the libraries of the module's own branch, not a module load or a driver
    of any version."""
    facts = f.facts(
        driver=NOT_LOADED,
        platform=f.platform(os_name=os_name),
        nvidia_kernel=kernel(
            modules=("nvidia", "nvidia_uvm"),
            kernel_module_version=module_line,
            device_nodes=(DeviceNode("/dev/nvidia0", True), DeviceNode("/dev/nvidiactl", True)),
        ),
        tensorflow=f.tensorflow(devices=()),
    )
    (finding,) = judge("driver.nvidia", facts)
    assert (finding.severity, finding.cause) == (Severity.ERROR, "driver-libraries-missing")
    assert finding.fix is not None
    assert "sudo modprobe nvidia" not in finding.fix.commands
    assert "branch 535" in finding.fix.text
    if command is None:
        assert not any("apt-get" in c for c in finding.fix.commands)
        assert "same version" in finding.fix.text
    else:
        # Which flavour the machine has (desktop, -server, or none: a .run install) is listed
        # before the reinstall, and the text says to reinstall what the listing shows.
        query = "dpkg-query -W 'libnvidia-compute-535*'"
        assert finding.fix.commands.index(query) < finding.fix.commands.index(command)
        assert "libnvidia-compute-535-server" in finding.fix.text
        assert "reinstall the one it lists with a version" in finding.fix.text
        assert ".run installer" in finding.fix.text


def test_a_driver_older_than_every_compiler_wheel_of_its_cuda_gets_a_toolkit() -> None:
    # nvidia-cuda-nvcc-cu11 starts at 11.7 (PyPI): pip finds no 11.4.* to install.
    facts = f.facts(
        cuda_libs=dataclasses.replace(
            f.cuda_libs(), ptxas="/usr/local/cuda-12.2/bin/ptxas", ptxas_version="12.2.140"
        ),
        driver=f.driver(cuda_version="11.4"),
    )
    (finding,) = judge("xla.ptxas", facts)
    assert finding.cause == "ptxas-too-new" and finding.fix is not None
    assert not any("nvidia-cuda-nvcc" in c for c in finding.fix.commands)
    assert "PATH" in finding.fix.text


#: nvidia-smi's answer where NVML starts and counts no GPU (the nvidia module is loaded).
NO_DEVICES = DriverFacts(
    "none",
    error=ProbeError(
        "driver",
        "no-gpu",
        "The NVIDIA driver is loaded but reports no GPUs",
        "No devices were found",
    ),
)
_LOADED = ("nvidia", "nvidia_uvm")
_CTL = (DeviceNode("/dev/nvidiactl", True),)


@pytest.mark.parametrize(
    ("bound", "first_command", "not_named"),
    [
        # Kept for a virtual machine: handed back through the drivers' sysfs files.
        pytest.param(
            "vfio-pci",
            "sudo lsof /dev/vfio/*",
            ("nouveau", "Xid 79"),
            id="vfio-pci",
        ),
        pytest.param(
            "nouveau",
            'echo "blacklist nouveau" | sudo tee /etc/modprobe.d/blacklist-nouveau.conf',
            ("vfio-pci", "Xid 79"),
            id="nouveau",
        ),
        # No driver bound: the nvidia module's probe refused it; the kernel log says why.
        pytest.param(
            None, "sudo dmesg | grep -E 'NVRM|Xid' | tail -20", ("vfio-pci", "Xid 79"), id="none"
        ),
        # Bound to nvidia and still uncounted: what a GPU fallen off the bus leaves.
        pytest.param(
            "nvidia", "sudo dmesg | grep -E 'NVRM|Xid' | tail -20", ("vfio-pci",), id="nvidia"
        ),
    ],
)
def test_no_devices_found_is_read_by_the_driver_the_gpu_is_bound_to(
    bound: str | None, first_command: str, not_named: tuple[str, ...]
) -> None:
    """The module runs and NVML counts no GPU: the PCI bus's binding names the reason, and
    the bindings it rules out are not offered."""
    facts = f.facts(
        driver=NO_DEVICES,
        nvidia_kernel=kernel(
            pci_devices=(dataclasses.replace(A100, driver=bound),),
            modules=_LOADED,
            device_nodes=_CTL,
        ),
        tensorflow=f.tensorflow(devices=()),
    )
    (finding,) = judge("driver.nvidia", facts)
    assert (finding.severity, finding.cause) == (Severity.ERROR, "gpu-not-bound")
    assert finding.fix is not None and finding.fix.commands[0] == first_command
    assert "lspci -nnk -d 10de:" in finding.fix.commands
    for word in not_named:
        assert word not in finding.fix.text


def test_no_devices_found_without_the_bus_ranks_every_candidate() -> None:
    """The bus unread: each reason, with the command that tells it apart, and a warning."""
    facts = f.facts(
        driver=NO_DEVICES,
        nvidia_kernel=NvidiaKernelFacts(modules=_LOADED, device_nodes=_CTL),
        tensorflow=f.tensorflow(devices=()),
    )
    (finding,) = judge("driver.nvidia", facts)
    assert (finding.severity, finding.cause) == (Severity.WARNING, "gpu-not-bound")
    assert finding.fix is not None
    text = finding.fix.text
    order = [text.index(word) for word in ("1. the GPU is bound to vfio-pci", "2.", "3.", "4.")]
    assert order == sorted(order)
    assert "Xid 79" in text and "nouveau" in text
    assert finding.fix.commands[0] == "lspci -nnk -d 10de:"
    assert "sudo dmesg | grep -E 'NVRM|Xid' | tail -20" in finding.fix.commands
    assert not any("/unbind" in c for c in finding.fix.commands)


def test_no_devices_found_in_a_container_is_its_start_without_a_gpu() -> None:
    facts = f.facts(
        driver=NO_DEVICES,
        platform=f.platform(container="docker"),
        tensorflow=f.tensorflow(devices=()),
    )
    (finding,) = judge("driver.nvidia", facts)
    assert (finding.severity, finding.cause) == (Severity.ERROR, "container-no-gpu")
    visible = judge("gpu.visible", facts)
    assert [x.cause for x in visible] == ["container-no-gpu"]


def test_no_devices_found_on_a_bus_read_empty_is_a_gpu_gone_from_it() -> None:
    """The module is loaded (a GPU was there when it loaded) and the bus lists none now:
    what Xid 79 leaves, the one candidate offered."""
    facts = f.facts(
        driver=NO_DEVICES,
        nvidia_kernel=kernel(pci_devices=(), modules=_LOADED, device_nodes=_CTL),
        tensorflow=f.tensorflow(devices=()),
    )
    (finding,) = judge("driver.nvidia", facts)
    assert (finding.severity, finding.cause) == (Severity.WARNING, "gpu-not-bound")
    assert finding.fix is not None and "Xid 79" in finding.fix.text
    assert "vfio-pci" not in finding.fix.text


def test_no_devices_found_on_a_bus_read_by_lspci_claims_no_binding() -> None:
    """lspci without -k shows no driver: its devices' binding is unknown, not 'no driver',
    so the nvidia probe's refusal is not ranked alone and the summary does not say so."""
    facts = f.facts(
        driver=NO_DEVICES,
        nvidia_kernel=kernel(pci_source="lspci", modules=_LOADED, device_nodes=_CTL),
        tensorflow=f.tensorflow(devices=()),
    )
    (finding,) = judge("driver.nvidia", facts)
    assert finding.cause == "gpu-not-bound"
    assert "no driver" not in finding.summary
    assert finding.fix is not None
    text = finding.fix.text
    assert "1. the GPU is bound to vfio-pci" in text and "Xid 79" in text and "nouveau" in text
    assert finding.fix.commands[0] == "lspci -nnk -d 10de:"


def test_a_gpu_kept_for_a_vm_is_handed_back_past_a_driver_override() -> None:
    """vfio-pci is often given the GPU through its driver_override (driverctl, libvirt's
    managed devices, the usual early-boot scripts), which lets no other driver bind it: the
    override is cleared (an empty write, sysfs-bus-pci's ABI) between unbind and bind."""
    slot = "0000:07:00.0"
    facts = f.facts(
        driver=NO_DEVICES,
        nvidia_kernel=kernel(
            pci_devices=(dataclasses.replace(A100, driver="vfio-pci"),),
            modules=_LOADED,
            device_nodes=_CTL,
        ),
        tensorflow=f.tensorflow(devices=()),
    )
    (finding,) = judge("driver.nvidia", facts)
    assert finding.fix is not None
    assert finding.fix.commands[:4] == (
        "sudo lsof /dev/vfio/*",
        f"echo {slot} | sudo tee /sys/bus/pci/drivers/vfio-pci/unbind",
        f"echo | sudo tee /sys/bus/pci/devices/{slot}/driver_override",
        f"echo {slot} | sudo tee /sys/bus/pci/drivers/nvidia/bind",
    )
    # A virtual machine using the device makes the unbind wait; driverctl's override lasts
    # past a reboot and is cleared by driverctl itself.
    assert "virsh list --all" in finding.fix.text
    assert f"driverctl unset-override {slot}" in finding.fix.text
