"""Noise-only logs, generated: the harmless lines TensorFlow, Keras, absl, pip and CUDA print on
a run that works, mixed as one machine prints them, must stay notes (no warning, no error).

Each family is written in the format of the source line that prints it, at several releases
where the path or the words moved:

- start-up: cpu_feature_guard.cc (1.x: "wasn't compiled to use SSE4.1", 2.0-2.3: "Your CPU
  supports instructions", 2.4-2.12: "optimized with oneAPI Deep Neural Network Library",
  2.13 on: "optimized to use available CPU instructions"), oneDNN's notice (core/util/util.cc,
  then core/util/port.cc), the CPU frequency (profile_utils/cpu_utils.cc), the thread pool
  (common_runtime/process_util.cc), MLIR's passes (mlir_graph_optimization_pass.cc), XLA's
  service (compiler/xla/service/service.cc) and its cluster compiled (jit/device_compiler.h);
- the GPU's: NUMA node read (stream_executor/cuda/cuda_gpu_executor.cc, later
  xla/stream_executor/cuda/cuda_executor.cc), devices created (gpu_device.cc), the
  interconnect matrix, cuDNN loaded (cuda_dnn.cc), the duplicate factory registrations of 2.14
  to 2.16 (cuda_dnn.cc, cuda_fft.cc, cuda_blas.cc), TF_FORCE_GPU_ALLOW_GROWTH
  (gpu_bfc_allocator.cc), ptxas' register spills (asm_compiler.cc), the allocator's "not a
  failure" (bfc_allocator.cc), the redzone check skipped (kernels/gpu_utils.cc), 2.4's
  libraries opened and device properties, TensorFloat-32 used (cuda_blas.cc);
- a CPU machine's: cudart_stub.cc's "Ignore above cudart dlerror" and 2.16's "Could not find
  cuda drivers on your machine", TF-TRT's "Could not find TensorRT" (tf2tensorrt/utils/
  py_utils.cc) and the TensorRT libraries' dlopen lines before it;
- Apple's tensorflow-metal: its device line and the pluggable device's NUMA note;
- Python's side: tf_logging's deprecation notices ("is deprecated and will be removed",
  "The name tf.X is deprecated"), absl's (``WARNING:absl:Found untraced functions``, the HDF5
  format called legacy, "No training configuration found"), retracing, AutoGraph running a
  function as-is, cuDNN kernels not used for a layer, unrestored checkpoint values, a slow
  callback, a file that is not a TensorFlow checkpoint (tensor_slice_reader.cc), NumPy's
  FutureWarning under TensorFlow 1's dtypes.py; Keras' deprecation UserWarnings (``lr``,
  ``fit_generator``, ``input_shape``, PyDataset's super);
  Keras' and tqdm's progress bars, an Estimator's last loss, a SavedModel written;
- pip's: "Requirement already satisfied", a download and "Successfully installed", its notice
  of a new release, running as root, an egg's deprecation.

A failing line planted among them must still be found (the test can fail). A notice that
predicts a failure of a version (pip's conflicts after an install, a companion's version
warning) joins them as a note only where the run's work done follows it.
"""

from __future__ import annotations

import random

import pytest

from tests.explaining import explained
from tfdoctor.findings import Report, Severity


def _tf(level: str, where: str, message: str) -> str:
    """One line of TensorFlow's C++ logger (``2023-06-14 09:21:07.123456: I file.cc:12] ...``)."""
    return f"2023-06-14 09:21:07.104512: {level} {where}] {message}\n"


_RECOMPILE = "in other operations, rebuild TensorFlow with the appropriate compiler flags.\n"
_ONEDNN = (
    "oneDNN custom operations are on. You may see slightly different numerical results due to "
    "floating-point round-off errors from different computation orders. To turn them off, set "
    "the environment variable `TF_ENABLE_ONEDNN_OPTS=0`."
)
_NUMA = (
    "successful NUMA node read from SysFS had negative value (-1), but there must be at least "
    "one NUMA node, so returning NUMA node zero"
)
_TWICE = "Attempting to register factory for plugin {0} when one has already been registered"

#: Lines any machine prints at start.
START: dict[str, str] = {
    "cpu-guard-1.x": (
        "W tensorflow/core/platform/cpu_feature_guard.cc:45] The TensorFlow library wasn't "
        "compiled to use SSE4.1 instructions, but these are available on your machine and could "
        "speed up CPU computations.\n"
    ),
    "cpu-guard-2.3": _tf(
        "I",
        "tensorflow/core/platform/cpu_feature_guard.cc:142",
        "Your CPU supports instructions that this TensorFlow binary was not compiled to use: "
        "AVX2 FMA",
    ),
    "cpu-guard-2.8": _tf(
        "I",
        "tensorflow/core/platform/cpu_feature_guard.cc:193",
        "This TensorFlow binary is optimized with oneAPI Deep Neural Network Library (oneDNN) to "
        "use the following CPU instructions in performance-critical operations:  AVX2 FMA",
    )
    + "To enable them "
    + _RECOMPILE,
    "cpu-guard-2.15": _tf(
        "I",
        "tensorflow/core/platform/cpu_feature_guard.cc:182",
        "This TensorFlow binary is optimized to use available CPU instructions in "
        "performance-critical operations.",
    )
    + "To enable the following instructions: AVX2 AVX512F FMA, "
    + _RECOMPILE,
    "onednn-2.9": _tf("I", "tensorflow/core/util/util.cc:169", _ONEDNN),
    "onednn-2.15": _tf("I", "tensorflow/core/util/port.cc:113", _ONEDNN),
    "cpu-frequency": _tf(
        "I",
        "tensorflow/core/platform/profile_utils/cpu_utils.cc:104",
        "CPU Frequency: 2199995000 Hz",
    ),
    "thread-pool": _tf(
        "I",
        "tensorflow/core/common_runtime/process_util.cc:146",
        "Creating new thread pool with default inter op setting: 2. Tune using "
        "inter_op_parallelism_threads for best performance.",
    ),
    "mlir": _tf(
        "I",
        "tensorflow/compiler/mlir/mlir_graph_optimization_pass.cc:185",
        "None of the MLIR Optimization Passes are enabled (registered 2)",
    ),
    "xla-service": _tf(
        "I",
        "tensorflow/compiler/xla/service/service.cc:168",
        "XLA service 0x55d5c8a0b2c0 initialized for platform Host (this does not guarantee that "
        "XLA will be used). Devices:",
    )
    + _tf(
        "I",
        "tensorflow/compiler/xla/service/service.cc:176",
        "  StreamExecutor device (0): Host, Default Version",
    ),
    "xla-compiled": _tf(
        "I",
        "./tensorflow/compiler/jit/device_compiler.h:186",
        "Compiled cluster using XLA!  This line is logged at most once for the lifetime of the "
        "process.",
    ),
    "tf-trt": _tf(
        "W",
        "tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38",
        "TF-TRT Warning: Could not find TensorRT",
    ),
    "tensorrt-libs-2.4": _tf(
        "W",
        "tensorflow/stream_executor/platform/default/dso_loader.cc:64",
        "Could not load dynamic library 'libnvinfer.so.7'; dlerror: libnvinfer.so.7: cannot open "
        "shared object file: No such file or directory",
    )
    + _tf(
        "W",
        "tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38",
        "TF-TRT Warning: Cannot dlopen some TensorRT libraries. If you would like to use Nvidia "
        "GPU with TensorRT, please make sure the missing libraries mentioned above are installed "
        "properly.",
    ),
}

#: Lines only a machine with an NVIDIA GPU that TensorFlow uses prints.
GPU: dict[str, str] = {
    "numa-2.10": _tf("I", "tensorflow/stream_executor/cuda/cuda_gpu_executor.cc:975", _NUMA),
    "numa-2.15": _tf(
        "I",
        "external/local_xla/xla/stream_executor/cuda/cuda_executor.cc:901",
        _NUMA + ". See more at https://github.com/torvalds/linux/blob/v6.0/Documentation/ABI/"
        "testing/sysfs-bus-pci#L344-L355",
    ),
    "created-1.x": _tf(
        "I",
        "tensorflow/core/common_runtime/gpu/gpu_device.cc:1120",
        "Creating TensorFlow device (/device:GPU:0) -> (device: 0, name: GeForce GTX 1080 Ti, "
        "pci bus id: 0000:01:00.0, compute capability: 6.1)",
    ),
    "created-2.x": _tf(
        "I",
        "tensorflow/core/common_runtime/gpu/gpu_device.cc:1886",
        "Created device /job:localhost/replica:0/task:0/device:GPU:0 with 13598 MB memory:  -> "
        "device: 0, name: Tesla T4, pci bus id: 0000:00:04.0, compute capability: 7.5",
    ),
    "interconnect": _tf(
        "I",
        "tensorflow/core/common_runtime/gpu/gpu_device.cc:1261",
        "Device interconnect StreamExecutor with strength 1 edge matrix:",
    )
    + _tf("I", "tensorflow/core/common_runtime/gpu/gpu_device.cc:1267", "     0 ")
    + _tf("I", "tensorflow/core/common_runtime/gpu/gpu_device.cc:1280", "0:   N "),
    "cudnn-loaded": _tf(
        "I",
        "tensorflow/compiler/xla/stream_executor/cuda/cuda_dnn.cc:424",
        "Loaded cuDNN version 8600",
    ),
    "factories-registered-twice": "".join(
        _tf(
            "E",
            f"external/local_xla/xla/stream_executor/cuda/{source}",
            f"Unable to register {plugin} factory: " + _TWICE.format(plugin),
        )
        for source, plugin in (
            ("cuda_dnn.cc:9261", "cuDNN"),
            ("cuda_fft.cc:607", "cuFFT"),
            ("cuda_blas.cc:1515", "cuBLAS"),
        )
    ),
    "allow-growth": _tf(
        "W",
        "tensorflow/core/common_runtime/gpu/gpu_bfc_allocator.cc:42",
        "Overriding orig_value setting because the TF_FORCE_GPU_ALLOW_GROWTH environment "
        "variable is set. Original config value was 0.",
    ),
    "ptxas-spills": _tf(
        "I",
        "tensorflow/compiler/xla/stream_executor/gpu/asm_compiler.cc:328",
        "ptxas warning : Registers are spilled to local memory in function 'fusion_1', 8 bytes "
        "spill stores, 8 bytes spill loads",
    ),
    "allocator-not-a-failure": _tf(
        "W",
        "tensorflow/core/common_runtime/bfc_allocator.cc:290",
        "Allocator (GPU_0_bfc) ran out of memory trying to allocate 2.20GiB with "
        "freed_by_count=0. The caller indicates that this is not a failure, but may mean that "
        "there could be performance gains if more memory were available.",
    ),
    "redzone-skipped": _tf(
        "W",
        "tensorflow/core/kernels/gpu_utils.cc:50",
        "Failed to allocate memory for convolution redzone checking; skipping this check. This "
        "is benign and only means that we won't check cudnn for out-of-bounds reads and writes. "
        "This message will only be printed once.",
    ),
    "opened-2.4": _tf(
        "I",
        "tensorflow/stream_executor/platform/default/dso_loader.cc:53",
        "Successfully opened dynamic library libcudart.so.11.0",
    )
    + _tf(
        "I",
        "tensorflow/core/common_runtime/gpu/gpu_device.cc:1720",
        "Found device 0 with properties: ",
    )
    + "pciBusID: 0000:00:04.0 name: Tesla T4 computeCapability: 7.5\ncoreClock: 1.59GHz "
    "coreCount: 40 deviceMemorySize: 14.75GiB deviceMemoryBandwidth: 298.08GiB/s\n",
    "tf32": _tf(
        "I",
        "tensorflow/stream_executor/cuda/cuda_blas.cc:1838",
        "TensorFloat-32 will be used for the matrix multiplication. This will only be logged once.",
    ),
    "lstm-no-cudnn": (
        "WARNING:tensorflow:Layer lstm will not use cuDNN kernels since it doesn't meet the "
        "criteria. It will use a generic GPU kernel as fallback when running on GPU.\n"
    ),
}

#: Lines a machine without a GPU prints under a build made for one.
NO_GPU: dict[str, str] = {
    "cudart-hint": _tf(
        "I",
        "tensorflow/stream_executor/cuda/cudart_stub.cc:29",
        "Ignore above cudart dlerror if you do not have a GPU set up on your machine.",
    ),
    "no-cuda-drivers-2.16": _tf(
        "I",
        "external/local_tsl/tsl/cuda/cudart_stub.cc:31",
        "Could not find cuda drivers on your machine, GPU will not be used.",
    ),
}

#: Apple's tensorflow-metal.
METAL: dict[str, str] = {
    "metal-device": "Metal device set to: Apple M1\n\nsystemMemory: 16.00 GB\nmaxCacheSize: "
    "5.33 GB\n\n"
    + _tf(
        "I",
        "tensorflow/core/common_runtime/pluggable_device/pluggable_device_factory.cc:305",
        "Could not identify NUMA node of platform GPU ID 0, defaulting to 0. Your kernel may not "
        "have been built with NUMA support.",
    )
    + _tf(
        "I",
        "tensorflow/core/grappler/optimizers/custom_graph_optimizer_registry.cc:114",
        "Plugin optimizer for device_type GPU is enabled.",
    ),
}

_SITE = "/usr/local/lib/python3.10/dist-packages"

#: What the program prints as it runs: Python-side warnings, progress, pip.
RUN: dict[str, str] = {
    "tf-deprecation": (
        f"WARNING:tensorflow:From {_SITE}/tensorflow/python/util/dispatch.py:1176: calling "
        "dropout (from tensorflow.python.ops.nn_ops) with keep_prob is deprecated and will be "
        "removed in a future version.\nInstructions for updating:\nPlease use `rate` instead of "
        "`keep_prob`. Rate should be set to `rate = 1 - keep_prob`.\n"
    ),
    "tf1-name-deprecated": (
        "WARNING:tensorflow:From train.py:12: The name tf.placeholder is deprecated. Please use "
        "tf.compat.v1.placeholder instead.\n\n"
    ),
    "absl-deprecation": (
        "W0614 09:21:07.123456 140234567 deprecation.py:350] From "
        f"{_SITE}/tensorflow/python/training/tracking/tracking.py:111: Model.state_updates (from "
        "tensorflow.python.keras.engine.training) is deprecated and will be removed in a future "
        "version.\nInstructions for updating:\nThis property should not be used in TensorFlow "
        "2.0, as updates are applied automatically.\n"
    ),
    "retracing": (
        "WARNING:tensorflow:5 out of the last 5 calls to <function Model.make_predict_function."
        "<locals>.predict_function at 0x7f3c2c1d0ca0> triggered tf.function retracing. Tracing is "
        "expensive and the excessive number of tracings could be due to (1) creating "
        "@tf.function repeatedly in a loop, (2) passing tensors with different shapes, (3) "
        "passing Python objects instead of tensors.\n"
    ),
    "autograph-as-is": (
        "WARNING:tensorflow:AutoGraph could not transform <function outer at 0x7f1d2c0b8d30> "
        "and will run it as-is.\nCause: Unable to locate the source code of <function outer at "
        "0x7f1d2c0b8d30>. Note that functions defined in certain environments, like the "
        "interactive Python shell, do not expose their source code.\nTo silence this warning, "
        "decorate the function with @tf.autograph.experimental.do_not_convert\n"
    ),
    "unrestored": (
        "WARNING:tensorflow:Detecting that an object or model or tf.train.Checkpoint is being "
        "deleted with unrestored values. See the following logs for the specific values in "
        "question. To silence these warnings, use `status.expect_partial()`.\n"
        "WARNING:tensorflow:Value in checkpoint could not be found in the restored object: "
        "(root).optimizer.iter\n"
    ),
    "absl-untraced": (
        "WARNING:absl:Found untraced functions such as _jit_compiled_convolution_op, "
        "_update_step_xla while saving (showing 2 of 2). These functions will not be directly "
        "callable after loading.\n"
    ),
    "absl-hdf5-legacy": (
        "WARNING:absl:You are saving your model as an HDF5 file via `model.save()` or "
        "`keras.saving.save_model(model)`. This file format is considered legacy. We recommend "
        "using instead the native Keras format, e.g. `model.save('my_model.keras')` or "
        "`keras.saving.save_model(model, 'my_model.keras')`. \n"
    ),
    "absl-not-compiled": (
        "WARNING:absl:No training configuration found in the save file, so the model was *not* "
        "compiled. Compile it manually.\n"
    ),
    "keras2-lr": (
        f"{_SITE}/keras/optimizers/optimizer_v2/adam.py:114: UserWarning: The `lr` argument is "
        "deprecated, use `learning_rate` instead.\n  super().__init__(name, **kwargs)\n"
    ),
    "keras-fit-generator": (
        f"{_SITE}/tensorflow/python/keras/engine/training.py:1844: UserWarning: "
        "`Model.fit_generator` is deprecated and will be removed in a future version. Please use "
        "`Model.fit`, which supports generators.\n"
        "  warnings.warn('`Model.fit_generator` is deprecated and '\n"
    ),
    "keras3-input-shape": (
        f"{_SITE}/keras/src/layers/core/dense.py:87: UserWarning: Do not pass an "
        "`input_shape`/`input_dim` argument to a layer. When using Sequential models, prefer "
        "using an `Input(shape)` object as the first layer in the model instead.\n"
        "  super().__init__(activity_regularizer=activity_regularizer, **kwargs)\n"
    ),
    "keras3-pydataset": (
        f"{_SITE}/keras/src/trainers/data_adapters/py_dataset_adapter.py:121: UserWarning: Your "
        "`PyDataset` class should call `super().__init__(**kwargs)` in its constructor. "
        "`**kwargs` can include `workers`, `use_multiprocessing`, `max_queue_size`. Do not pass "
        "these arguments to `fit()`, as they will be ignored.\n"
        "  self._warn_if_super_not_called()\n"
    ),
    "keras-backend": "Using TensorFlow backend.\n",
    "slow-callback": (
        "WARNING:tensorflow:Callback method `on_train_batch_end` is slow compared to the batch "
        "time (batch time: 0.0040s vs `on_train_batch_end` time: 0.0105s). Check your "
        "callbacks.\n"
    ),
    "not-an-sstable": _tf(
        "W",
        "tensorflow/core/util/tensor_slice_reader.cc:96",
        "Could not open ./weights.h5: DATA_LOSS: not an sstable (bad magic number): perhaps "
        "your file is in a different file format and you need to use a different restore "
        "operator?",
    ),
    "numpy-futurewarning-tf1": (
        "/usr/local/lib/python3.6/dist-packages/tensorflow/python/framework/dtypes.py:516: "
        "FutureWarning: Passing (type, 1) or '1type' as a synonym of type is deprecated; in a "
        "future version of numpy, it will be understood as (type, (1,)) / '(1,)type'.\n"
        '  _np_qint8 = np.dtype([("qint8", np.int8, 1)])\n'
    ),
    "keras2-epochs": (
        "Epoch 1/2\n1875/1875 [==============================] - 5s 2ms/step - loss: 0.2984 - "
        "accuracy: 0.9134\nEpoch 2/2\n1875/1875 [==============================] - 4s 2ms/step - "
        "loss: 0.1433 - accuracy: 0.9571\n"
    ),
    "keras3-epochs": (
        "Epoch 1/2\n\x1b[1m469/469\x1b[0m \x1b[32m" + "\u2501" * 20 + "\x1b[0m\x1b[37m\x1b[0m "
        "\x1b[1m3s\x1b[0m 5ms/step - accuracy: 0.8710 - loss: 0.4421\n"
    ),
    "tqdm": "100%|" + "\u2588" * 10 + "| 50/50 [00:02<00:00, 21.30it/s]\n",
    "estimator-final": (
        "INFO:tensorflow:Saving checkpoints for 1000 into /tmp/model/model.ckpt.\n"
        "INFO:tensorflow:Loss for final step: 0.2813.\n"
    ),
    "saved-model": "INFO:tensorflow:Assets written to: /tmp/model/assets\n",
    "shuffle-buffer": _tf(
        "I",
        "tensorflow/core/kernels/data/shuffle_dataset_op.cc:422",
        "Filling up shuffle buffer (this may take a while): 6122 of 10000",
    )
    + _tf("I", "tensorflow/core/kernels/data/shuffle_dataset_op.cc:450", "Shuffle buffer filled."),
    "end-of-sequence": _tf(
        "I",
        "tensorflow/core/framework/local_rendezvous.cc:404",
        "Local rendezvous is aborting with status: OUT_OF_RANGE: End of sequence",
    )
    + "\t [[{{node IteratorGetNext}}]]\n",
    "optimization-loop": _tf(
        "W",
        "tensorflow/core/data/root_dataset.cc:286",
        "Optimization loop failed: CANCELLED: Operation was cancelled",
    ),
    "cache-iterator": _tf(
        "W",
        "tensorflow/core/kernels/data/cache_dataset_ops.cc:856",
        "The calling iterator did not fully read the dataset being cached. In order to avoid "
        "unexpected truncation of the dataset, the partially cached contents of the dataset  "
        "will be discarded.",
    ),
    "producer-version": _tf(
        "W",
        "tensorflow/core/common_runtime/graph_constructor.cc:840",
        "Importing a graph with a lower producer version 440 into an existing graph with "
        "producer version 1395. Shape inference will have run different parts of the graph with "
        "different producer versions.",
    ),
    "allocation-10pct": _tf(
        "W",
        "tensorflow/core/framework/cpu_allocator_impl.cc:82",
        "Allocation of 376320000 exceeds 10% of free system memory.",
    ),
    "pip-satisfied": (
        f"Requirement already satisfied: numpy<2.0.0,>=1.23.5 in {_SITE} (from "
        "tensorflow==2.15.0) (1.25.2)\n"
    ),
    "pip-installed": (
        "Collecting tensorflow==2.15.0\n  Downloading tensorflow-2.15.0-cp310-cp310-"
        "manylinux_2_17_x86_64.manylinux2014_x86_64.whl (475.2 MB)\nInstalling collected "
        "packages: tensorflow\nSuccessfully installed tensorflow-2.15.0\n"
    ),
    "pip-new-release": (
        "\n[notice] A new release of pip is available: 23.0.1 -> 24.0\n"
        "[notice] To update, run: pip install --upgrade pip\n"
    ),
    "pip-root": (
        "WARNING: Running pip as the 'root' user can result in broken permissions and "
        "conflicting behaviour with the system package manager. It is recommended to use a "
        "virtual environment instead: https://pip.pypa.io/warnings/venv\n"
    ),
    "pip-egg": (
        "DEPRECATION: Loading egg at /usr/local/lib/python3.11/dist-packages/example-1.0-"
        "py3.11.egg is deprecated. pip 24.3 will enforce this behaviour change. A possible "
        "replacement is to use pip for package installation.\n"
    ),
}

#: Each machine's own start-up lines: a log comes from one machine.
MACHINES: dict[str, dict[str, str]] = {"gpu": GPU, "no-gpu": NO_GPU, "metal": METAL}


def _loud(report: Report) -> list[str]:
    """The findings above a note, as ``id:severity``."""
    return [
        f"{x.id}:{x.severity.value}"
        for x in report.findings
        if x.severity.rank > Severity.INFO.rank
    ]


def _start_up(machine: str, rnd: random.Random) -> str:
    """A few of ``machine``'s own and the common start-up lines, as a process prints them."""
    start = {**START, **MACHINES[machine]}
    return "".join(start[k] for k in rnd.sample(sorted(start), rnd.randint(1, 4)))


def generated(machine: str, seed: int) -> str:
    """A noise-only log of ``machine``: its start-up lines, then a few of the run's lines, in
    the order a process prints them."""
    rnd = random.Random(f"{machine}-{seed}")
    head = _start_up(machine, rnd)
    return head + "".join(RUN[k] for k in rnd.sample(sorted(RUN), rnd.randint(1, 6)))


@pytest.mark.parametrize(
    "name",
    [*START, *GPU, *NO_GPU, *METAL, *RUN],
)
def test_each_family_alone_is_a_note(name: str) -> None:
    text = {**START, **GPU, **NO_GPU, **METAL, **RUN}[name]
    assert _loud(explained(text)) == []


@pytest.mark.parametrize("machine", list(MACHINES))
@pytest.mark.parametrize("seed", range(12))
def test_generated_noise_only_logs_are_notes(machine: str, seed: int) -> None:
    text = generated(machine, seed)
    assert _loud(explained(text)) == [], text


@pytest.mark.parametrize("machine", list(MACHINES))
def test_a_failure_planted_in_the_noise_is_found(machine: str) -> None:
    # The generator's logs are noise only because nothing failed: a failing import among
    # them is found, so the test above can fail.
    failure = (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 1, in <module>\n'
        "    import tensorflow as tf\n"
        "ImportError: libcudart.so.11.0: cannot open shared object file: No such file or "
        "directory\n"
    )
    assert _loud(explained(generated(machine, 0) + failure)) != []


#: pip 20.3's notice after an install, of TensorFlow's own range (commands/install.py
#: ``_warn_about_conflicts``): a prediction, which the run's work done refutes.
_PIP_NOTICE = (
    "ERROR: pip's dependency resolver does not currently take into account all the packages "
    "that are installed. This behaviour is the source of the following dependency conflicts.\n"
    "tensorflow 2.6.0 requires numpy~=1.19.2, but you have numpy 1.21.6 which is "
    "incompatible.\n"
)
_WORK_DONE = ("keras2-epochs", "keras3-epochs", "estimator-final", "saved-model")


@pytest.mark.parametrize("machine", list(MACHINES))
@pytest.mark.parametrize("seed", range(4))
def test_a_version_notice_in_the_noise_is_a_note_only_after_the_work_done(
    machine: str, seed: int
) -> None:
    noise = "".join(RUN[k] for k in RUN if k not in _WORK_DONE)
    head = _PIP_NOTICE + _start_up(machine, random.Random(f"{machine}-{seed}"))
    done = RUN[_WORK_DONE[seed % len(_WORK_DONE)]]
    assert _loud(explained(head + noise + done)) == []
    assert _loud(explained(head + noise)) != []
