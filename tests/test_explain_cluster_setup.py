"""A multi-worker job's set-up failures explain reads from a worker's log: TF_CONFIG refused by
TensorFlow's own checks, variables made outside the strategy's scope, the coordination
service's barrier and heartbeats, a peer's name gRPC cannot resolve, tf.data's file sharding
across workers, Horovod's shutdown and horovodrun without a controller to launch with, and the
notes TensorFlow prints while it works (the AUTO shard policy's fallback, MirroredStrategy
without NCCL, its slower paths, GPUs that cannot peer). The lines here are written for the
tests, in TensorFlow's and Horovod's formats."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, one_error, problem_causes
from tfdoctor import causes

SITE = "/usr/local/lib/python3.10/dist-packages/tensorflow/python/distribute"


def _traceback(frames: str, error: str) -> str:
    """A traceback of the strategy's creation through ``frames`` (file, line, function)."""
    lines = [
        "Traceback (most recent call last):",
        '  File "train.py", line 12, in <module>',
        "    strategy = tf.distribute.MultiWorkerMirroredStrategy()",
        f'  File "{SITE}/collective_all_reduce_strategy.py", line 189, in __init__',
        "    CollectiveAllReduceExtended(",
    ]
    for frame in frames.splitlines():
        path, line, function = frame.split(":")
        lines += [f'  File "{SITE}/{path}", line {line}, in {function}', "    ..."]
    return "\n".join([*lines, error])


#: A log, the cause it must get (an error, exactly once) and a word its fix holds.
RECOGNISED = [
    pytest.param(
        _traceback(
            "cluster_resolver/tfconfig_cluster_resolver.py:108:cluster_spec\n"
            "cluster_resolver/tfconfig_cluster_resolver.py:38:_load_tf_config",
            "json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: "
            "line 1 column 2 (char 1)",
        ),
        "tf-config-invalid-json",
        "json.dumps",
        id="json-single-quotes",
    ),
    pytest.param(
        _traceback(
            "cluster_resolver/tfconfig_cluster_resolver.py:38:_load_tf_config",
            "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
        ),
        "tf-config-invalid-json",
        "TF_CONFIG",
        id="json-not-json",
    ),
    pytest.param(
        _traceback(
            "multi_worker_util.py:104:_validate_cluster_spec",
            "ValueError: The `task_id` 3 exceeds the maximum id of worker.",
        ),
        "tf-config-task-out-of-range",
        "index",
        id="task-id-exceeds",
    ),
    pytest.param(
        _traceback(
            "multi_worker_util.py:92:_validate_cluster_spec",
            "ValueError: `task_type` 'worker' not found in cluster_spec.",
        ),
        "tf-config-task-invalid",
        "task",
        id="task-type-absent",
    ),
    pytest.param(  # 1.x's words (multi_worker_util.is_chief)
        'ValueError: The task_type "chief" is not in the `cluster_spec`.',
        "tf-config-task-invalid",
        "task",
        id="task-type-absent-1x",
    ),
    pytest.param(
        _traceback(
            "multi_worker_util.py:86:_validate_cluster_spec",
            "ValueError: Unrecognized task_type: 'master', valid task types are: \"chief\", "
            '"worker", "evaluator" and "ps".',
        ),
        "tf-config-master-task",
        "`chief`",
        id="master",
    ),
    pytest.param(
        "ValueError: Unrecognized task_type: 'trainer', valid task types are: \"chief\", "
        '"worker", "evaluator" and "ps".',
        "tf-config-unknown-job",
        "evaluator",
        id="unknown-job",
    ),
    pytest.param(
        "ValueError: There must be at most one 'evaluator' job.",
        "tf-config-multiple-chiefs",
        "one `evaluator`",
        id="two-evaluators",
    ),
    pytest.param(
        "tensorflow.python.framework.errors_impl.InvalidArgumentError: Could not interpret "
        '"grpc://node-2:2222" as a host-port pair.',
        "tf-config-address-scheme",
        "host:port",
        id="scheme",
    ),
    pytest.param(
        "ValueError: Variable (<tf.Variable 'dense_1/bias:0' shape=(10,) dtype=float32>) was "
        "not created in the distribution strategy scope of (<tensorflow.python.distribute."
        "mirrored_strategy.MirroredStrategy object at 0x7f3b2c0e1d90>). It is most likely due "
        "to not all layers or the model or optimizer being created outside the distribution "
        "strategy scope. Try to make sure your code looks similar to the following.\n"
        "with strategy.scope():\n  model=_create_model()\n  model.compile(...)",
        "strategy-scope-missing",
        "strategy.scope()",
        id="outside-scope",
    ),
    pytest.param(
        "ValueError: Trying to create optimizer slot variable under the scope for "
        "tf.distribute.Strategy (<tensorflow.python.distribute.distribute_lib."
        "_DefaultDistributionStrategy object at 0x7f3b2c0e1d90>), which is different from the "
        "scope used for the original variable (MirroredVariable:{\n  0: <tf.Variable "
        "'dense/kernel:0' shape=(8, 1) dtype=float32>\n}). Make sure the slot variables are "
        "created under the same strategy scope. This may happen if you're restoring from a "
        "checkpoint outside the scope",
        "strategy-scope-missing",
        "checkpoint",
        id="slot-outside-scope",
    ),
    pytest.param(
        "tensorflow.python.framework.errors_impl.DeadlineExceededError: Barrier timed out. Id: "
        "PjRT_Client_Connect. This usually happens because a task triggered the barrier too "
        "early or too slowly. Please look at the task logs (both timed out and first task) to "
        "debug further.\n# of tasks that reached the barrier: 2/3.\nThe first task at the "
        "barrier: /job:worker/replica:0/task:0. Some timed out task names:\n"
        "/job:worker/replica:0/task:2",
        "cluster-task-unreachable",
        "TF_CONFIG",
        id="barrier",
    ),
    pytest.param(
        "tensorflow.python.framework.errors_impl.DeadlineExceededError: Barrier timed out. "
        "Barrier_id: CheckpointSave_3. Timed out task names:\n/job:worker/replica:0/task:1\n",
        "cluster-task-unreachable",
        "TF_CONFIG",
        id="tensorflow-coordination-barrier",
    ),
    pytest.param(
        "tensorflow.python.framework.errors_impl.DeadlineExceededError: Barrier timed out. "
        "Barrier_id: WaitForAllTasks",
        "cluster-task-unreachable",
        "TF_CONFIG",
        id="tensorflow-coordination-barrier-without-tasks",
    ),
    pytest.param(
        "2024-05-02 08:01:13.200417: E tensorflow/tsl/distributed_runtime/coordination/"
        "coordination_service.cc:1129] Task /job:worker/replica:0/task:3 heartbeat timeout. "
        "This indicates that the remote task has failed, got preempted, or crashed "
        "unexpectedly. Check the task logs for an earlier error to debug further.",
        "cluster-worker-failed",
        "checkpoint",
        id="heartbeat",
    ),
    pytest.param(  # Horovod's status after another rank raised
        "tensorflow.python.framework.errors_impl.AbortedError: Horovod has been shut down. This "
        "was caused by an exception on one of the ranks or an attempt to allreduce, allgather "
        "or broadcast a tensor after one of the ranks finished execution.\n"
        "\t [[{{node DistributedSGD_Allreduce/cond/HorovodAllreduce_grads_0}}]]",
        "cluster-worker-failed",
        "log",
        id="horovod-shut-down",
    ),
    pytest.param(  # 1.x's rendezvous
        "tensorflow.python.framework.errors_impl.AbortedError: RecvTensor expects a different "
        "device incarnation: 4470215861279023316 vs. 1290388811734407012. Your worker job "
        '("/job:worker/replica:0/task:2") was probably restarted. Check your worker job for '
        "the reason why it was restarted.",
        "cluster-worker-failed",
        "log",
        id="worker-restarted-1x",
    ),
    pytest.param(  # the eager service
        "tensorflow.python.framework.errors_impl.AbortedError: Unable to find a context_id "
        "matching the specified one (5120098147661320195). Perhaps the worker was restarted, "
        "or the context was GC'd?",
        "cluster-worker-failed",
        "dmesg",
        id="worker-restarted-eager",
    ),
    pytest.param(
        "tensorflow.python.framework.errors_impl.UnavailableError: failed to connect to all "
        "addresses; last error: UNAVAILABLE: DNS resolution failed for trainer-worker-2.jobs:"
        "2222: C-ares status is not ARES_SUCCESS qtype=A name=trainer-worker-2.jobs "
        "is_balancer=0: Domain name not found",
        "tf-config-unresolvable",
        "getent hosts trainer-worker-2.jobs",
        id="name-unresolved",
    ),
    pytest.param(  # gRPC 1.2x's words
        "tensorflow.python.framework.errors_impl.UnavailableError: DNS resolution failed for "
        "service: ps-1:2222",
        "tf-config-unresolvable",
        "ps-1",
        id="name-unresolved-old-grpc",
    ),
    pytest.param(
        "tensorflow.python.framework.errors_impl.InvalidArgumentError: Could not apply FILE "
        "based sharding: the dataset only has 2 file(s), which is not enough for the required "
        "4 shards/workers.If you are using datasets with distribution strategy, consider "
        "setting the auto sharding policy to either DATA or OFF\n"
        "\t [[{{node MultiDeviceIteratorGetNextFromShard}}]]",
        "dataset-autoshard-mismatch",
        "AutoShardPolicy.DATA",
        id="too-few-files",
    ),
    pytest.param(  # the FILE policy, which has no fallback
        "tensorflow.python.framework.errors_impl.NotFoundError: Found an unshardable source "
        'dataset: name: "TensorSliceDataset/_1"\nop: "TensorSliceDataset"',
        "dataset-autoshard-mismatch",
        "files",
        id="file-policy-unshardable",
    ),
    pytest.param(
        "NOT_FOUND: Did not find a shardable source, walked to a node which is not a dataset: "
        'name: "FlatMapDataset/_2"',
        "dataset-autoshard-mismatch",
        "DATA",
        id="file-policy-no-source",
    ),
]


#: horovodrun refusing to launch, with a word of the fix for its case.
HOROVODRUN = [
    pytest.param(
        "ValueError: Neither MPI nor Gloo support has been built. Try reinstalling Horovod "
        "ensuring that either MPI is installed (MPI) or CMake is installed (Gloo).",
        "HOROVOD_WITH_GLOO=1",
        id="neither",
    ),
    pytest.param(
        "ValueError: MPI support has not been built.  If this is not expected, ensure MPI is "
        "installed and reinstall Horovod with HOROVOD_WITH_MPI=1 to debug the build error.",
        "HOROVOD_WITH_MPI=1",
        id="mpi",
    ),
    pytest.param(
        "ValueError: Gloo support has not been built.  If this is not expected, ensure CMake "
        "is installed and reinstall Horovod with HOROVOD_WITH_GLOO=1 to debug the build error.",
        "install cmake",
        id="gloo",
    ),
    pytest.param(  # 0.20's words
        "Exception: horovodrun convenience script does not find an installed MPI.\n\n"
        "Choose one of:\n1. Install Open MPI 4.0.0+ or IBM Spectrum MPI or MPICH and "
        "re-install Horovod (use --no-cache-dir pip option).",
        "--gloo",
        id="no-mpi-installed",
    ),
    pytest.param(
        "Exception: horovod does not find an installed MPI.\n\nChoose one of:",
        "mpirun --version",
        id="no-mpi-installed-later",
    ),
]


@pytest.mark.parametrize(("log", "fix_word"), HOROVODRUN)
def test_horovodrun_without_a_controller(log: str, fix_word: str) -> None:
    finding = one_error(explained(log), "horovod-controller-missing")
    assert fix_word in fix_text(finding)


@pytest.mark.parametrize(("log", "fix_word"), HOROVODRUN[:3])
def test_horovod_is_removed_before_it_is_built_again(log: str, fix_word: str) -> None:
    # pip leaves an installed Horovod as it is ("Requirement already satisfied"), with or
    # without HOROVOD_WITH_*: only a Horovod removed first is built again.
    text = fix_text(one_error(explained(log), "horovod-controller-missing"))
    assert "pip uninstall -y horovod" in text
    assert text.index("pip uninstall -y horovod") < text.index("install --no-cache-dir horovod")


def test_a_missing_mpi_is_not_told_to_rebuild_horovod() -> None:
    log = "Exception: horovod does not find an installed MPI."
    assert "HOROVOD_WITH" not in fix_text(one_error(explained(log), "horovod-controller-missing"))


@pytest.mark.parametrize(("log", "cause", "fix_word"), RECOGNISED)
def test_each_message_is_an_error_of_its_cause(log: str, cause: str, fix_word: str) -> None:
    assert fix_word in fix_text(one_error(explained(log), cause))


def test_an_unresolved_name_is_the_connection_failure_that_quotes_it() -> None:
    log = (
        "UnavailableError: failed to connect to all addresses; last error: UNAVAILABLE: DNS "
        "resolution failed for w-3:2222: C-ares status is not ARES_SUCCESS qtype=A name=w-3 "
        "is_balancer=0: Domain name not found"
    )
    assert problem_causes(explained(log)) == {"tf-config-unresolvable"}


@pytest.mark.parametrize(
    "log",
    [
        pytest.param(  # a Google API client, not a task of a cluster
            "google.api_core.exceptions.ServiceUnavailable: 503 DNS resolution failed for "
            "us-central1-aiplatform.googleapis.com:443: C-ares status is not ARES_SUCCESS "
            "qtype=SRV name=_grpclb._tcp.us-central1-aiplatform.googleapis.com: Domain name "
            "not found",
            id="api-client",
        ),
        pytest.param(  # the DNS server, not the name
            "UnavailableError: failed to connect to all addresses; last error: UNAVAILABLE: DNS "
            "resolution failed for w-3:2222: C-ares status is not ARES_SUCCESS qtype=A name=w-3 "
            "is_balancer=0: Timeout while contacting DNS servers",
            id="dns-server",
        ),
    ],
)
def test_a_resolver_failure_that_is_not_the_name(log: str) -> None:
    assert "tf-config-unresolvable" not in problem_causes(explained(log))


def test_too_few_files_fail_under_the_auto_policy_too() -> None:
    # The AUTO policy shards an input read from files by file, with each shard required to
    # get one (auto_shard.cc sets ShardDataset's require_non_empty): it falls back to DATA
    # only for an input not read from files.
    text = causes.CAUSES["dataset-autoshard-mismatch"].explanation
    assert "AUTO policy on an input read from files" in text
    assert "fewer files than workers fails under either policy" in text


def test_a_json_error_elsewhere_is_not_tf_config() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 5, in <module>\n'
        "    config = json.load(open('config.json'))\n"
        "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)"
    )
    assert "tf-config-invalid-json" not in problem_causes(explained(log))


#: Notes TensorFlow prints while it goes on working, with the signature that must read them as
#: harmless (info, nothing to act on).
HARMLESS = [
    pytest.param(
        "2023-02-11 09:14:52.883401: W tensorflow/core/grappler/optimizers/data/auto_shard.cc:"
        "786] AUTO sharding policy will apply DATA sharding policy as it failed to apply FILE "
        "sharding policy because of the following reason: Found an unshardable source dataset: "
        'name: "TensorSliceDataset/_2"\nop: "TensorSliceDataset"\ninput: "Placeholder/_0"\n'
        "Epoch 1/5\n"
        "469/469 [==============================] - 9s 14ms/step - loss: 0.2951",
        "autoshard-data-fallback",
        id="auto-fallback",
    ),
    pytest.param(  # TensorFlow 2.2's words, which quote the reason after " Error: "
        "2020-06-03 17:40:12.100231: W tensorflow/core/grappler/optimizers/data/auto_shard.cc:"
        "434] In AUTO-mode, and switching to DATA-based sharding, instead of FILE-based "
        "sharding as we cannot find appropriate reader dataset op(s) to shard. Error: Found an "
        'unshardable source dataset: name: "TensorDataset/_1"\nop: "TensorDataset"\n'
        "Epoch 1/3",
        "autoshard-data-fallback",
        id="auto-fallback-2.2",
    ),
    pytest.param(
        "WARNING:tensorflow:There are non-GPU devices in `tf.distribute.Strategy`, not using "
        "nccl allreduce.\nINFO:tensorflow:Using MirroredStrategy with devices "
        "('/job:localhost/replica:0/task:0/device:CPU:0',)\nEpoch 1/2",
        "mirrored-without-nccl",
        id="mirrored-on-cpu",
    ),
    pytest.param(
        "W0412 09:10:11.120034 14032 cross_device_ops.py:1401] Nccl kernel is not found, not "
        "using nccl allreduce.\nEpoch 1/2",
        "mirrored-without-nccl",
        id="mirrored-without-nccl-kernel",
    ),
    pytest.param(
        "WARNING:tensorflow:Efficient allreduce is not supported for 3 IndexedSlices\n"
        "Epoch 1/4\n120/120 [==============================] - 14s 96ms/step - loss: 1.02",
        "distribute-sparse-allreduce-note",
        id="sparse-gradients",
    ),
    pytest.param(
        "WARNING:tensorflow:Using MultiWorkerMirroredStrategy eagerly has significant overhead "
        "currently. We will be working on improving this in the future, but for now please "
        "wrap `call_for_each_replica` or `experimental_run` or `run` inside a tf.function to "
        "get the best performance.",
        "distribute-eager-note",
        id="eager-strategy",
    ),
    pytest.param(
        "2024-01-09 11:02:40.551873: W tensorflow/core/common_runtime/gpu/gpu_device.cc:1407] "
        "Unable to enable peer access between device ordinals 1 and 0, status: INTERNAL: "
        "failed to enable peer access from 0x5581c0 to 0x5581f0: "
        "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED: peer access is not supported between these two "
        "devices\nEpoch 1/10",
        "gpu-peer-access-unavailable",
        id="no-peer-access",
    ),
]


@pytest.mark.parametrize(("log", "signature"), HARMLESS)
def test_a_working_note_stays_below_warning(log: str, signature: str) -> None:
    report = explained(log)
    assert problem_causes(report) == set()
    assert any(x.id == f"explain.benign.{signature}" for x in report.findings)
