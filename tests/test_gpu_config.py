"""tfdoctor.configure_gpus: argument checks, policy choice, the GPU path through a strict fake
of tf.config, and the real TensorFlow runtime on the CPU (no-GPU result, "too late")."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Optional

import pytest

from tfdoctor import gpu_config
from tfdoctor.gpu_config import (
    TOO_LATE_FIX,
    GpuConfigResult,
    Outcome,
    TooLateError,
    choose_policy,
    validate,
)

ROOT = Path(__file__).resolve().parent.parent


# --- arguments ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        pytest.param({"memory_limit_mb": 0}, ValueError, "positive", id="limit-zero"),
        pytest.param({"memory_limit_mb": -5}, ValueError, "positive", id="limit-negative"),
        pytest.param({"memory_limit_mb": 1.5}, TypeError, "int", id="limit-float"),
        pytest.param({"memory_limit_mb": True}, TypeError, "int", id="limit-bool"),
        pytest.param({"visible": [0, 0]}, ValueError, "twice", id="visible-duplicate"),
        pytest.param({"visible": [-1]}, ValueError, "not a GPU index", id="visible-negative"),
        pytest.param({"visible": "0,1"}, TypeError, "list of GPU indices", id="visible-str"),
        pytest.param({"visible": [True]}, ValueError, "not a GPU index", id="visible-bool"),
        pytest.param({"mixed_precision": "fp16"}, ValueError, "one of auto", id="policy-unknown"),
        pytest.param({"memory_growth": "yes"}, TypeError, "True or False", id="growth-str"),
    ],
)
def test_bad_arguments_are_refused_by_name(
    kwargs: dict[str, Any], error: type[Exception], message: str
) -> None:
    args: dict[str, Any] = {
        "memory_growth": True,
        "memory_limit_mb": None,
        "visible": None,
        "mixed_precision": None,
    }
    args.update(kwargs)
    with pytest.raises(error, match=message):
        validate(**args)


@pytest.mark.parametrize("off", [None, "off"], ids=["none", "off"])
def test_off_means_no_policy(off: Optional[str]) -> None:
    assert validate(True, None, None, off).mixed_precision is None


def test_bad_arguments_fail_before_tensorflow_is_imported() -> None:
    code = (
        "import sys, tfdoctor\n"
        "try:\n"
        "    tfdoctor.configure_gpus(memory_limit_mb=0)\n"
        "except ValueError as exc:\n"
        "    print(type(exc).__name__, exc)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('tensorflow', 'keras')))\n"
    )
    out = _python(code, timeout=60)
    assert out.stdout.splitlines() == ["ValueError memory_limit_mb must be positive, got 0", "[]"]


def test_importing_tfdoctor_loads_neither_gpu_config_nor_tensorflow() -> None:
    code = (
        "import sys, tfdoctor\n"
        "print('tfdoctor.gpu_config' in sys.modules, 'tensorflow' in sys.modules)\n"
        "fn = tfdoctor.configure_gpus\n"
        "print(fn.__module__, 'tensorflow' in sys.modules)\n"
    )
    out = _python(code, timeout=60)
    assert out.stdout.splitlines() == ["False False", "tfdoctor.gpu_config False"]


# --- the policy -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("requested", "capabilities", "policy"),
    [
        pytest.param("auto", ["8.0"], "mixed_bfloat16", id="a100-bfloat16"),
        pytest.param("auto", ["9.0", "8.6"], "mixed_bfloat16", id="h100-and-a10"),
        pytest.param("auto", ["7.5"], "mixed_float16", id="t4-float16"),
        pytest.param("auto", ["7.0", "8.0"], "mixed_float16", id="mixed-volta-slowest-decides"),
        pytest.param("auto", ["6.1"], None, id="pascal-no-tensor-cores"),
        pytest.param("auto", ["8.0", None], None, id="unknown-capability"),
        pytest.param("auto", ["12.0"], "mixed_bfloat16", id="two-digit-major"),
        pytest.param("float16", ["6.1"], "mixed_float16", id="forced-float16"),
        pytest.param("bfloat16", ["7.5"], "mixed_bfloat16", id="forced-bfloat16"),
        pytest.param("auto", [], None, id="no-gpu"),
        pytest.param(None, ["8.0"], None, id="not-asked"),
    ],
)
def test_policy_from_compute_capability(
    requested: Optional[str], capabilities: list[Optional[str]], policy: Optional[str]
) -> None:
    chosen, why = choose_policy(requested, capabilities)
    assert chosen == policy
    assert why


def test_policy_reason_names_the_deciding_gpu() -> None:
    _, why = choose_policy("auto", ["8.6", "7.5"])
    assert "7.5" in why
    assert "LossScaleOptimizer" in why
    _, forced = choose_policy("bfloat16", ["8.0", "7.5"])
    assert forced == (
        "asked for bfloat16; compute capability 7.5 has no bfloat16 tensor cores, so expect no "
        "speed-up there"
    )


# --- the result -----------------------------------------------------------------------------


def test_result_describes_itself_and_too_late_error_carries_it() -> None:
    result = GpuConfigResult(
        gpus=(),
        applied=(Outcome("mixed_precision", "all", "mixed_bfloat16", "compute capability 8.0"),),
        not_applied=(Outcome("memory_growth", "GPU:0", "on", gpu_config.TOO_LATE_REASON),),
        too_late=True,
        fix=TOO_LATE_FIX,
    )
    assert not result.ok
    assert str(result).splitlines() == [
        "tfdoctor.configure_gpus: 0 GPU(s)",
        "  applied: mixed_precision=mixed_bfloat16 on all: compute capability 8.0",
        f"  not applied: memory_growth=on on GPU:0: {gpu_config.TOO_LATE_REASON}",
        f"  fix: {TOO_LATE_FIX}",
    ]
    with pytest.raises(TooLateError) as info:
        gpu_config._finish(result, strict=True)
    assert info.value.result is result
    assert info.value.fix == TOO_LATE_FIX
    assert isinstance(info.value, RuntimeError)
    assert gpu_config._finish(result, strict=False) is result


# --- the GPU path, through a strict fake of tf.config ---------------------------------------
# The fake keeps the rules of tensorflow/python/eager/context.py that configure_gpus meets:
# settings equal to the current ones are no-ops; any change after the runtime started raises
# RuntimeError with TensorFlow's own message; growth and logical devices exclude each other.
# The real TensorFlow checks of the same rules on the CPU are at the end of this file.


class _Device:
    def __init__(self, name: str, device_type: str) -> None:
        self.name = name
        self.device_type = device_type


class _LogicalDeviceConfiguration:
    def __init__(self, memory_limit: Optional[int] = None) -> None:
        self.memory_limit = memory_limit

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, _LogicalDeviceConfiguration)
            and other.memory_limit == self.memory_limit
        )

    __hash__ = None  # type: ignore[assignment]


class FakeTF:
    """The slice of ``tf`` configure_gpus uses; any other attribute is an AttributeError."""

    def __init__(self, capabilities: Sequence[Optional[tuple[int, int]]], cuda: bool = True):
        self.devices = [
            _Device(f"/physical_device:GPU:{i}", "GPU") for i in range(len(capabilities))
        ]
        self.capabilities = dict(zip((d.name for d in self.devices), capabilities))
        self.started = False
        self.visible: list[_Device] = list(self.devices)
        self.growth: dict[str, bool] = {}
        self.logical: dict[str, list[_LogicalDeviceConfiguration]] = {}
        self.policy: Optional[str] = None
        self.cuda = cuda
        self.config = _Namespace(
            list_physical_devices=self._list,
            set_visible_devices=self._set_visible,
            set_logical_device_configuration=self._set_logical,
            LogicalDeviceConfiguration=_LogicalDeviceConfiguration,
            experimental=_Namespace(
                set_memory_growth=self._set_growth, get_device_details=self._details
            ),
        )
        self.keras = _Namespace(mixed_precision=_Namespace(set_global_policy=self._set_policy))
        self.test = _Namespace(is_built_with_cuda=lambda: self.cuda)

    def _list(self, device_type: str) -> list[_Device]:
        assert device_type == "GPU"
        return list(self.devices)

    def _set_visible(self, devices: list[_Device], device_type: str) -> None:
        assert device_type == "GPU"
        if devices == self.visible:
            return
        if self.started:
            raise RuntimeError("Visible devices cannot be modified after being initialized")
        self.visible = list(devices)

    def _set_growth(self, device: _Device, enable: bool) -> None:
        if device.name in self.logical:
            raise ValueError("Cannot set memory growth on device when virtual devices configured")
        if self.growth.get(device.name) == enable:
            return
        if self.started:
            raise RuntimeError("Physical devices cannot be modified after being initialized")
        self.growth[device.name] = enable

    def _set_logical(self, device: _Device, configs: list[_LogicalDeviceConfiguration]) -> None:
        if any(c.memory_limit is None for c in configs):
            raise ValueError("Setting memory limit is required for GPU virtual devices")
        if self.logical.get(device.name) == configs:
            return
        if self.started:
            raise RuntimeError("Virtual devices cannot be modified after being initialized")
        self.logical[device.name] = configs

    def _details(self, device: _Device) -> dict[str, Any]:
        cc = self.capabilities[device.name]
        return {"device_name": "NVIDIA Fake"} if cc is None else {"compute_capability": cc}

    def _set_policy(self, policy: str) -> None:
        self.policy = policy


class _Namespace:
    def __init__(self, **attrs: Any) -> None:
        self.__dict__.update(attrs)

    def __getattr__(self, name: str) -> Any:
        # Only reached for a name the fake does not define: TensorFlow would raise too.
        raise AttributeError(name)


def configure(
    tf: FakeTF,
    env: Optional[dict[str, str]] = None,
    memory_growth: bool = True,
    memory_limit_mb: Optional[int] = None,
    visible: Optional[Sequence[int]] = None,
    mixed_precision: Optional[str] = None,
) -> GpuConfigResult:
    request = validate(memory_growth, memory_limit_mb, visible, mixed_precision)
    return gpu_config._configure(tf, tf.config.list_physical_devices("GPU"), request, env or {})


def _settings(outcomes: Sequence[Outcome]) -> list[tuple[str, str, str]]:
    return [(o.setting, o.device, o.value) for o in outcomes]


def test_growth_on_every_gpu_and_policy_from_capability() -> None:
    tf = FakeTF([(8, 0), (8, 6)])
    result = configure(tf, mixed_precision="auto")
    assert tf.growth == {"/physical_device:GPU:0": True, "/physical_device:GPU:1": True}
    assert tf.policy == "mixed_bfloat16"
    assert result.ok
    assert not result.too_late
    assert _settings(result.applied) == [
        ("memory_growth", "GPU:0", "on"),
        ("memory_growth", "GPU:1", "on"),
        ("mixed_precision", "all", "mixed_bfloat16"),
    ]
    assert [(g.index, g.compute_capability, g.memory_growth) for g in result.gpus] == [
        (0, "8.0", True),
        (1, "8.6", True),
    ]


def test_limit_replaces_growth_and_says_why() -> None:
    tf = FakeTF([(7, 5)])
    result = configure(tf, memory_limit_mb=4096)
    assert [c.memory_limit for c in tf.logical["/physical_device:GPU:0"]] == [4096]
    assert tf.growth == {}
    assert _settings(result.applied) == [("memory_limit", "GPU:0", "4096 MB")]
    # Growth is the default argument; a limit standing in for it is no failure.
    assert result.not_applied == ()
    assert _settings(result.skipped) == [("memory_growth", "GPU:0", "on")]
    assert "cannot combine" in result.skipped[0].reason
    assert result.ok
    assert result.gpus[0].memory_limit_mb == 4096


def test_visible_restricts_and_configures_only_those() -> None:
    tf = FakeTF([(8, 0), (8, 0), (8, 0)])
    result = configure(tf, visible=[2, 0])
    assert [d.name for d in tf.visible] == ["/physical_device:GPU:2", "/physical_device:GPU:0"]
    assert set(tf.growth) == {"/physical_device:GPU:0", "/physical_device:GPU:2"}
    assert _settings(result.applied)[0] == ("visible_devices", "all", "GPU:2,GPU:0")
    assert [g.visible for g in result.gpus] == [True, False, True]


def test_visible_index_that_does_not_exist_is_refused() -> None:
    with pytest.raises(ValueError, match=r"no GPU 2; TensorFlow lists 2 \(indices 0-1\)"):
        configure(FakeTF([(8, 0), (8, 0)]), visible=[0, 2])


def test_environment_false_overrides_growth() -> None:
    tf = FakeTF([(8, 0)])
    result = configure(tf, env={"TF_FORCE_GPU_ALLOW_GROWTH": "false"})
    assert tf.growth == {}
    assert "TF_FORCE_GPU_ALLOW_GROWTH=false" in result.not_applied[0].reason


def test_too_late_stops_at_the_first_refusal_and_names_the_fix() -> None:
    tf = FakeTF([(7, 0), (7, 0)])
    tf.started = True
    result = configure(tf, visible=[0, 1], mixed_precision="auto")
    # The visible list equals the current one: TensorFlow lets that through.
    assert _settings(result.applied) == [
        ("visible_devices", "all", "GPU:0,GPU:1"),
        ("mixed_precision", "all", "mixed_float16"),
    ]
    assert _settings(result.not_applied) == [
        ("memory_growth", "GPU:0", "on"),
        ("memory_growth", "GPU:1", "on"),
    ]
    assert result.too_late
    assert result.fix == TOO_LATE_FIX
    assert 'eval "$(tfdoctor env)"' in TOO_LATE_FIX


def test_growth_set_in_the_environment_is_in_effect_even_when_too_late() -> None:
    tf = FakeTF([(8, 0), (8, 0)])
    tf.started = True
    env = {"TF_FORCE_GPU_ALLOW_GROWTH": "true"}
    result = configure(tf, env=env)
    assert result.ok and not result.too_late and result.fix is None
    assert _settings(result.applied) == [
        ("memory_growth", "GPU:0", "on"),
        ("memory_growth", "GPU:1", "on"),
    ]
    assert "already in effect" in result.applied[0].reason
    assert [g.memory_growth for g in result.gpus] == [True, True]
    # Too late for another setting: the fix does not ask for the variable already set.
    late = configure(tf, env=env, visible=[1])
    assert late.too_late and late.fix == gpu_config.TOO_LATE_FIX_GROWTH_SET
    assert "eval" not in (late.fix or "")
    assert "already in effect through TF_FORCE_GPU_ALLOW_GROWTH=true" in (late.fix or "")
    assert TooLateError(late).fix == late.fix


def test_auto_keeping_float32_is_skipped_not_failed() -> None:
    result = configure(FakeTF([(6, 1)]), mixed_precision="auto")
    assert result.ok
    assert _settings(result.skipped) == [("mixed_precision", "all", "auto")]
    assert "below 7.0" in result.skipped[0].reason


def test_growth_already_on_is_not_too_late() -> None:
    tf = FakeTF([(8, 0)])
    configure(tf)
    tf.started = True
    again = configure(tf)
    assert again.ok
    assert not again.too_late


def test_other_runtime_errors_are_not_mistaken_for_too_late() -> None:
    tf = FakeTF([(8, 0)])

    def broken(device: Any, enable: bool) -> None:
        raise RuntimeError("CUDA_ERROR_OUT_OF_MEMORY")

    tf.config.experimental.set_memory_growth = broken
    with pytest.raises(RuntimeError, match="OUT_OF_MEMORY"):
        configure(tf)


def test_no_gpu_result_skips_every_setting_and_is_ok() -> None:
    tf = FakeTF([], cuda=False)
    request = validate(True, None, [0], "auto")
    result = gpu_config._no_gpu(tf, request)
    assert result.gpus == ()
    assert result.applied == ()
    assert result.not_applied == ()
    assert result.ok  # nothing asked for failed: there was nothing to act on
    assert _settings(result.skipped) == [
        ("visible_devices", "all", "GPU:0"),
        ("memory_growth", "all", "on"),
        ("mixed_precision", "all", "auto"),
    ]
    assert all("CPU-only build" in o.reason for o in result.skipped)
    assert "  skipped: visible_devices=GPU:0 on all: " in result.describe()


# --- real TensorFlow, on the CPU, one fresh runtime per test ----------------------------------


def _python(code: str, timeout: float) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", PYTHONPATH=str(ROOT))
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return out


def _json_lines(out: subprocess.CompletedProcess[str]) -> list[Any]:
    return [json.loads(line[4:]) for line in out.stdout.splitlines() if line.startswith("OUT ")]


_PRELUDE = """
import dataclasses, json
import tensorflow as tf
import tfdoctor
from tfdoctor import gpu_config

def show(value):
    data = dataclasses.asdict(value) if dataclasses.is_dataclass(value) else value
    print("OUT " + json.dumps(data))

# tf.config, but a memory limit (which CPUs refuse) becomes a plain logical CPU.
class _Config:
    def __init__(self, config):
        self._config = config

    def __getattr__(self, name):
        return getattr(self._config, name)

    def LogicalDeviceConfiguration(self, memory_limit=None):
        return self._config.LogicalDeviceConfiguration()


# The real tf with that one change: the memory-limit path runs on a CPU, where TensorFlow
# keeps the same "after being initialized" rule for logical devices as on a GPU.
class CpuTF:
    def __init__(self, tf):
        self._tf = tf
        self.config = _Config(tf.config)

    def __getattr__(self, name):
        return getattr(self._tf, name)


limit = gpu_config.validate(False, 64, None, None)
cpus = tf.config.list_physical_devices("CPU")
cpu_tf = CpuTF(tf)
"""


@pytest.mark.slow
def test_real_runtime_before_start_no_gpu_result_and_cpu_split() -> None:
    code = _PRELUDE + (
        "if tf.config.list_physical_devices('GPU'):\n"
        "    print('HAS-GPU')\n"
        "r = tfdoctor.configure_gpus(visible=[0], mixed_precision='auto')\n"
        "show([dataclasses.asdict(r), r.ok])\n"
        "show(tf.config.get_logical_device_configuration(cpus[0]) is None)\n"
        "show(gpu_config._configure(cpu_tf, cpus, limit, {}))\n"
        "show(len(tf.config.get_logical_device_configuration(cpus[0])))\n"
    )
    out = _python(code, timeout=180)
    if "HAS-GPU" in out.stdout:
        pytest.skip("this machine has a GPU: the no-GPU result is not reachable")
    (no_gpu, ok), unset, applied, configured = _json_lines(out)
    assert ok is True
    assert no_gpu["gpus"] == []
    assert no_gpu["applied"] == []
    assert no_gpu["not_applied"] == []
    assert [o["setting"] for o in no_gpu["skipped"]] == [
        "visible_devices",
        "memory_growth",
        "mixed_precision",
    ]
    assert (
        "sees no GPU" in no_gpu["skipped"][0]["reason"]
        or "CPU-only" in (no_gpu["skipped"][0]["reason"])
    )
    assert not no_gpu["too_late"]
    assert unset is True
    assert [(o["setting"], o["device"]) for o in applied["applied"]] == [("memory_limit", "CPU:0")]
    assert applied["not_applied"] == []
    assert configured == 1


@pytest.mark.slow
def test_real_runtime_already_started_gives_the_too_late_result() -> None:
    code = _PRELUDE + (
        "tf.reduce_sum(tf.ones([4]))  # the runtime starts here\n"
        "try:\n"
        "    tf.config.set_logical_device_configuration(\n"
        "        cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)\n"
        "except RuntimeError as exc:\n"
        "    show('tf: ' + str(exc))\n"
        "show(gpu_config._configure(cpu_tf, cpus, limit, {}))\n"
        "try:\n"
        "    gpu_config._finish(gpu_config._configure(cpu_tf, cpus, limit, {}), strict=True)\n"
        "except tfdoctor.TooLateError as exc:\n"
        "    show(['TooLateError', exc.fix, exc.result.too_late])\n"
        "show(len(tf.config.list_logical_devices('CPU')))\n"
    )
    out = _python(code, timeout=180)
    bare, result, raised, logical = _json_lines(out)
    # TensorFlow's own error, which configure_gpus turns into a result.
    assert bare == "tf: Virtual devices cannot be modified after being initialized"
    assert result["too_late"] is True
    assert result["applied"] == []
    assert [(o["setting"], o["device"]) for o in result["not_applied"]] == [
        ("memory_limit", "CPU:0")
    ]
    assert result["not_applied"][0]["reason"] == gpu_config.TOO_LATE_REASON
    assert result["fix"] == TOO_LATE_FIX
    assert raised == ["TooLateError", TOO_LATE_FIX, True]
    assert logical == 1


# --- a real GPU (opt-in: -m gpu) ------------------------------------------------------------


@pytest.mark.gpu
@pytest.mark.slow
def test_real_gpu_growth_applies_and_memory_stays_small() -> None:
    code = (
        "import json, os, pynvml\n"
        "pynvml.nvmlInit()\n"
        "h = pynvml.nvmlDeviceGetHandleByIndex(0)\n"
        "free = pynvml.nvmlDeviceGetMemoryInfo(h).free\n"
        "import tensorflow as tf, tfdoctor\n"
        "r = tfdoctor.configure_gpus(mixed_precision='auto')\n"
        "gpus = tf.config.list_physical_devices('GPU')\n"
        "grown = [tf.config.experimental.get_memory_growth(g) for g in gpus]\n"
        "with tf.device('/GPU:0'):\n"
        "    x = tf.reduce_sum(tf.ones([1024, 1024]))\n"
        "_ = float(x)\n"
        "late = tfdoctor.configure_gpus(memory_limit_mb=1024)\n"
        "mine = [p.usedGpuMemory for p in pynvml.nvmlDeviceGetComputeRunningProcesses(h)\n"
        "        if p.pid == os.getpid()]\n"
        "print('OUT ' + json.dumps({'ok': r.ok, 'policy': r.mixed_precision, 'grown': grown,\n"
        "                  'cc': [g.compute_capability for g in r.gpus],\n"
        "                  'late': late.too_late, 'free': free, 'mine': mine}))\n"
    )
    out = _python(code, timeout=300)
    (data,) = _json_lines(out)
    assert data["ok"], out.stdout
    assert all(data["grown"])
    assert all(cc for cc in data["cc"])
    assert data["policy"] in ("mixed_float16", "mixed_bfloat16", None)
    assert data["late"] is True
    # With growth the process holds what the op needed plus CUDA's context, far below the
    # free memory TensorFlow maps by default (beside another job that is not the total).
    if data["mine"] and data["mine"][0] is not None:
        assert data["mine"][0] < 0.5 * data["free"], data
