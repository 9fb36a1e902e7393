"""Distributed training environments and models moved across releases, read from the words
TensorFlow, Horovod, NCCL, Open MPI, Keras, TF Hub and TensorFlow.js print.

| Message | Releases | Source |
| --- | --- | --- |
| `.../horovod/tensorflow/mpi_lib*.so: undefined symbol: _Z...10tensorflow...` | Horovod | 1, 2 |
| `dlopen(.../horovod/tensorflow/mpi_lib*.so, 6): Symbol not found: __Z...` | Horovod | 1, 2 |
| `HorovodVersionMismatchError: Framework tensorflow installed with version X` | 0.21 on | 3 |
| `Extension horovod.tensorflow has not been built: ... not found` | - | 3 |
| crash frame `horovod/tensorflow/mpi_lib*.so(+0xN)[0xA]`, gdb's `from ...mpi_lib*.so` | - | 4, 5 |
| `libtensorflow_framework.so.1(hwloc_X+0xN)`, gdb's `in hwloc_X () from ...` | TF 1.14, 2.20+ | 2 |
| `libopen-pal.so.20(opal_hwloc_X+0xN)`, gdb's `in opal_hwloc_X ()` | TF 1.14, 2.20+ | 2 |
| `include/shm.h:42 NCCL WARN Cuda failure 'invalid argument'` | NCCL 2.4 < 2.4.6, shown | 6, 7 |
| `CreateSession still waiting for response from worker: /job:J/replica:0/task:N` | TF 1.x | 8 |
| `Initialize GrpcChannelCache for job J -> {0 -> HOST:PORT, ...}` | TF 1.x | 18 |
| `Start master session H with config:` (the tasks waited for answered) | TF 1.x | 17 |
| `NodeDef mentions attr 'X' not in Op<name=Y; ...>` (graph newer than the runtime) | all | 9 |
| `No attr named 'X' in NodeDef:` (graph older than the code reading it) | all | 10 |
| `Unknown initializer: GlorotUniform` (Keras' deserialiser) | Keras <= 2.3.1 | 11, 12 |
| `Error: Unknown initializer: GlorotUniform` (TensorFlow.js' deserialiser) | early tfjs | 13 |
| `received unexpected process identifier [[J,1],N]` (Open MPI's TCP transport) | any | 14, 15 |
| `Setting hub.KerasLayer.trainable = True is unsupported when loading from the TF1 Hub` | - | 16 |
| `Signature name has to be specified for non-callable saved models` | - | 16 |

1. https://github.com/horovod/horovod/blob/v0.28.1/setup.py
2. https://github.com/horovod/horovod/blob/v0.28.1/docs/troubleshooting.rst
3. https://github.com/horovod/horovod/blob/v0.28.1/horovod/common/util.py
4. https://github.com/horovod/horovod/blob/v0.18.0/README.rst
5. https://github.com/open-mpi/ompi/blob/v4.0.1/opal/util/stacktrace.c
6. https://github.com/NVIDIA/nccl/blob/v2.4.2-1/src/include/shm.h
7. https://github.com/NVIDIA/nccl/commit/14e0cf644b9ba2214f2b6d2e299e8218f6145d32
8. https://github.com/tensorflow/tensorflow/blob/v1.15.0/tensorflow/core/distributed_runtime/master.cc
9. https://github.com/tensorflow/tensorflow/blob/v1.4.0/tensorflow/core/framework/node_def_util.cc
10. https://github.com/tensorflow/tensorflow/blob/v1.10.1/tensorflow/core/framework/node_def_util.cc
11. https://github.com/keras-team/keras/blob/2.3.1/keras/initializers.py
12. https://github.com/keras-team/keras/blob/2.3.1/keras/utils/generic_utils.py
13. https://github.com/tensorflow/tfjs/blob/master/tfjs-layers/src/utils/generic_utils.ts
14. https://github.com/open-mpi/ompi/blob/v4.0.1/opal/mca/btl/tcp/btl_tcp_endpoint.c
15. https://github.com/horovod/horovod/blob/v0.28.1/docs/mpi.rst
16. https://github.com/tensorflow/hub/blob/v0.16.1/tensorflow_hub/keras_layer.py
17. https://github.com/tensorflow/tensorflow/blob/v1.15.0/tensorflow/core/distributed_runtime/master_session.cc
18. https://github.com/tensorflow/tensorflow/blob/v1.15.0/tensorflow/core/distributed_runtime/rpc/grpc_channel.cc
"""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, readings
from tfdoctor.causes.gpu import nccl_shm_bug
from tfdoctor.findings import Severity

_SITE = "/srv/env/lib/python3.6/site-packages"


def _causes(text: str) -> list[str]:
    """The causes the report names at warning or above."""
    return [f.cause for f in readings(explained(text))]


def _ranked(text: str) -> list[str]:
    """The causes the report names at warning or above, the ranked candidates with them."""
    return [f.cause for f in explained(text).findings if f.severity.rank >= Severity.WARNING.rank]


def _finding(text: str, cause: str) -> str:
    """The fix of ``cause``'s finding (warning or above), asserted present."""
    found = [f for f in readings(explained(text)) if f.cause == cause]
    assert found, [(f.id, f.severity.value) for f in explained(text).findings]
    return fix_text(found[0])


def _candidate(text: str, cause: str) -> str:
    """The fix of ``cause``'s ranked candidate (warning), asserted present."""
    found = [
        f
        for f in explained(text).findings
        if f.cause == cause and f.summary.endswith("(the other candidate)")
    ]
    assert found, [(f.id, f.severity.value) for f in explained(text).findings]
    return fix_text(found[0])


# --- Horovod's TensorFlow extension ----------------------------------------------------------


def test_horovods_extension_missing_a_tensorflow_symbol_is_rebuilt_against_it() -> None:
    text = (
        "Traceback (most recent call last):\n"
        f'  File "{_SITE}/horovod/tensorflow/mpi_ops.py", line 56, in <module>\n'
        "    ['HorovodAllgather', 'HorovodAllreduce'])\n"
        f'  File "{_SITE}/tensorflow/python/framework/load_library.py", line 60, in '
        "load_op_library\n"
        "    lib_handle = py_tf.TF_LoadLibrary(library_filename)\n"
        f"tensorflow.python.framework.errors_impl.NotFoundError: {_SITE}/horovod/tensorflow/"
        "mpi_lib.cpython-36m-x86_64-linux-gnu.so: undefined symbol: "
        "_ZN10tensorflow8internal21CheckOpMessageBuilder9NewStringEv\n"
    )
    fix = _finding(text, "companion-mismatch")
    assert "HOROVOD_WITH_TENSORFLOW=1" in fix and "--no-cache-dir" in fix and "horovod" in fix


def test_horovods_extension_refused_by_macos_dyld_is_rebuilt_against_it() -> None:
    site = "/Users/u/venv/lib/python3.8/site-packages"
    text = (
        "OSError: dlopen("
        f"{site}/horovod/tensorflow/mpi_lib.cpython-38-darwin.so, 6): Symbol not found: "
        "__ZN10tensorflow8OpKernel11TraceStringEPNS_15OpKernelContextEb\n"
        f"  Referenced from: {site}/horovod/tensorflow/mpi_lib.cpython-38-darwin.so\n"
        f"  Expected in: {site}/tensorflow/libtensorflow_framework.2.dylib\n"
    )
    fix = _finding(text, "companion-mismatch")
    assert "HOROVOD_WITH_TENSORFLOW=1" in fix and "horovod" in fix


def test_horovod_installed_without_its_tensorflow_extension() -> None:
    text = (
        "ImportError: Extension horovod.tensorflow has not been built: "
        f"{_SITE}/horovod/tensorflow/mpi_lib.cpython-36m-x86_64-linux-gnu.so not found\n"
        "If this is not expected, reinstall Horovod with HOROVOD_WITH_TENSORFLOW=1 to debug the "
        "build error.\n"
    )
    fix = _finding(text, "companion-mismatch")
    assert "HOROVOD_WITH_TENSORFLOW=1" in fix and "pip uninstall -y horovod" in fix


def test_horovods_pytorch_extension_is_not_tensorflows() -> None:
    text = (
        "ImportError: Extension horovod.torch has not been built: "
        f"{_SITE}/horovod/torch/mpi_lib_v2.cpython-36m-x86_64-linux-gnu.so not found\n"
    )
    assert "companion-mismatch" not in _causes(text)


def test_tensorflows_own_library_missing_its_symbol_is_no_add_on() -> None:
    # TensorFlow's own folder (not one inside another package) is a broken TensorFlow.
    text = (
        f"ImportError: {_SITE}/tensorflow/python/_pywrap_tensorflow_internal.so: undefined "
        "symbol: _ZN10tensorflow8internal21CheckOpMessageBuilder9NewStringEv\n"
    )
    assert "companion-mismatch" not in _causes(text)


def test_tensorflows_and_jaxs_own_libraries_stay_out_beside_horovods() -> None:
    # The op library reading excludes TensorFlow's folders and JAX's (jaxlib, its PJRT plugin
    # and its CUDA or ROCm plugin package), while Horovod's `tensorflow` folder is read.
    for library in (
        f"{_SITE}/tensorflow_core/python/_pywrap_tensorflow_internal.so",
        f"{_SITE}/jaxlib/xla_extension.so",
        f"{_SITE}/jax_plugins/xla_cuda12/xla_cuda_plugin.so",
        f"{_SITE}/jax_cuda12_plugin/_versions.so",
        f"{_SITE}/jax_rocm60_plugin/_hybrid.so",
    ):
        for symbol in ("_ZN3tsl8internal10LogMessageC1EPKcii", "_ZN10tensorflow8OpKernelD2Ev"):
            text = f"ImportError: {library}: undefined symbol: {symbol}\n"
            assert "companion-mismatch" not in _causes(text), text


def test_a_crash_through_horovods_extension_is_its_build() -> None:
    text = (
        "[1,1]<stderr>:[host:9123] *** Process received signal ***\n"
        "[1,1]<stderr>:[host:9123] Signal: Segmentation fault (11)\n"
        "[1,1]<stderr>:[host:9123] Failing at address: 0x88\n"
        f"[1,1]<stderr>:[host:9123] [ 1] {_SITE}/horovod/tensorflow/mpi_lib.cpython-36m-"
        "x86_64-linux-gnu.so(+0x6f1a0)[0x7f00aa6f1a0]\n"
    )
    report = explained(text)
    fix = _finding(text, "custom-op-build-mismatch")
    assert (
        "g++" in fix and "COMPILER_VERSION" in fix and "pip install --no-cache-dir horovod" in fix
    )
    # The frames say where it crashed: not an import.
    assert all(f.cause != "import-crash" for f in report.findings)


def test_a_crash_through_horovods_extension_under_tensorflow_1_14_names_gcc_4() -> None:
    text = (
        "tensorflow version: 1.14.0\n"
        f"#3  0x00007f00aa6f1a0 in horovod::common::Op () from {_SITE}/horovod/tensorflow/"
        "mpi_lib.cpython-36m-x86_64-linux-gnu.so\n"
        "Segmentation fault (core dumped)\n"
    )
    fix = _finding(text, "custom-op-build-mismatch")
    assert "4.8.5 or 4.9" in fix and "CXX=g++-4.9" in fix


def test_horovods_files_listed_by_pip_are_no_crash() -> None:
    text = (
        "Found existing installation: horovod 0.16.4\n"
        "Uninstalling horovod-0.16.4:\n"
        f"  Would remove:\n    {_SITE}/horovod/tensorflow/mpi_lib.cpython-36m-x86_64-linux-gnu.so\n"
    )
    assert "custom-op-build-mismatch" not in _causes(text)


# --- hwloc exported by TensorFlow 1.14 (hidden in 1.15, exported again from 2.20) ------------


def test_open_mpis_hwloc_bound_to_tensorflows_copy() -> None:
    text = (
        "#0  0x00007f2d1a036224 in hwloc_bitmap_and () from "
        f"{_SITE}/tensorflow/python/../libtensorflow_framework.so.1\n"
        "#1  0x00007f2dd1019099 in opal_hwloc_base_filter_cpus ()\n"
        "   from /usr/lib/x86_64-linux-gnu/libopen-pal.so.20\n"
    )
    fix = _finding(text, "tf-exported-symbol-clash")
    assert "LD_PRELOAD" in fix and "ldconfig -p | grep libhwloc.so" in fix
    # The library's path is the one the loader cache lists, never a path of another machine.
    assert "/usr/lib/x86_64-linux-gnu/libhwloc" not in fix
    assert 'LD_PRELOAD="$(ldconfig -p | awk' in fix
    # TensorFlow 1.15 hides its hwloc (tensorflow/tensorflow#29807, #40830).
    assert "TensorFlow 1.14, and 2.20 on" in fix and "1.15" not in fix


def test_open_mpis_own_backtrace_of_hwloc() -> None:
    text = (
        "Signal: Segmentation fault (11)\n"
        "[ 1] /usr/lib/x86_64-linux-gnu/libopen-pal.so.20(opal_hwloc_base_free_topology+0x76)"
        "[0x7f3042871ca6]\n"
    )
    assert "tf-exported-symbol-clash" in _causes(text)
    assert "import-crash" not in _causes(text)


def test_hwloc_named_outside_a_crash_frame_is_not_the_clash() -> None:
    text = (
        "checking for hwloc_topology_init in -lhwloc... yes\n"
        "configure: hwloc_bitmap_and found in /usr/lib/x86_64-linux-gnu/libhwloc.so\n"
    )
    assert "tf-exported-symbol-clash" not in _causes(text)


# --- NCCL ------------------------------------------------------------------------------------


def test_nccl_2_4s_shared_memory_registration_bug() -> None:
    text = (
        "node1:5110:5110 [0] NCCL INFO NCCL version 2.4.2+cuda10.0\n"
        "node1:5110:5262 [1] NCCL INFO Ring 00 : 1[1] -> 2[2] via direct shared memory\n"
        "node1:5111:5263 [2] include/shm.h:42 NCCL WARN Cuda failure 'invalid argument'\n"
        "node1:5111:5263 [2] NCCL INFO transport/shm.cu:187 -> 1\n"
    )
    fix = _finding(text, "nccl-release-bug")
    assert "2.4.2" in fix and "2.4.6" in fix and "NCCL_SHM_DISABLE=1" in fix
    assert "grep cuda10.0" in fix


def test_the_same_words_from_another_nccl_release_are_not_that_bug() -> None:
    text = (
        "node1:5110:5110 [0] NCCL INFO NCCL version 2.7.8+cuda11.0\n"
        "node1:5111:5263 [2] include/shm.h:46 NCCL WARN Cuda failure 'invalid argument'\n"
    )
    assert "nccl-release-bug" not in _causes(text)


def test_the_same_words_without_nccls_release_make_that_bug_the_second_candidate() -> None:
    # include/shm.h:42 registers the segment from NCCL 2.4.2 to 2.11: the line alone does not
    # say the release, so the failed collective leads and the bug follows with its own fix.
    text = "node1:5111:5263 [2] include/shm.h:42 NCCL WARN Cuda failure 'invalid argument'\n"
    causes = _ranked(text)
    assert causes.index("cluster-collective-failed") < causes.index("nccl-release-bug")
    assert "nccl-release-bug" not in _causes(text)  # a ranked candidate, not a reading
    fix = _candidate(text, "nccl-release-bug")
    assert "does not show NCCL's release" in fix and "2.4.6" in fix
    assert "NCCL_SHM_DISABLE=1" in fix


def test_nccls_release_shown_rules_the_second_candidate_out() -> None:
    text = (
        "node1:5110:5110 [0] NCCL INFO NCCL version 2.8.4+cuda11.2\n"
        "node1:5111:5263 [2] include/shm.h:42 NCCL WARN Cuda failure 'invalid argument'\n"
    )
    assert _ranked(text) == ["cluster-collective-failed"]


@pytest.mark.parametrize(
    ("release", "bug"),
    [("2.3.7", False), ("2.4.0", True), ("2.4.5", True), ("2.4.6", False), ("2.4.8", False)],
    ids=["before", "first", "last", "fixed", "after"],
)
def test_the_bugs_releases_have_one_home(release: str, bug: bool) -> None:
    # The range explain judges a log by is the one the fix's words are made from.
    assert nccl_shm_bug(release) is bug
    text = (
        f"node1:5110:5110 [0] NCCL INFO NCCL version {release}+cuda10.0\n"
        "node1:5111:5263 [2] include/shm.h:42 NCCL WARN Cuda failure 'invalid argument'\n"
    )
    assert ("nccl-release-bug" in _causes(text)) is bug


def test_nccls_other_cuda_failures_are_not_that_bug() -> None:
    text = "node1:5111:5263 [2] transport/p2p.cc:136 NCCL WARN Cuda failure 'invalid argument'\n"
    assert "nccl-release-bug" not in _causes(text)


# --- TensorFlow 1's cluster ------------------------------------------------------------------


def test_a_session_waiting_for_tasks_names_them() -> None:
    text = (
        "I tensorflow/core/distributed_runtime/master.cc:209] CreateSession still waiting for "
        "response from worker: /job:ps/replica:0/task:0\n"
        "I tensorflow/core/distributed_runtime/master.cc:209] CreateSession still waiting for "
        "response from worker: /job:worker/replica:0/task:1\n"
    )
    fix = _finding(text, "cluster-task-unreachable")
    assert "/job:ps/replica:0/task:0" in fix and "/job:worker/replica:0/task:1" in fix
    assert "getent hosts" in fix


_WAITING = (
    "I tensorflow/core/distributed_runtime/master.cc:209] CreateSession still waiting for "
    "response from worker: /job:ps/replica:0/task:0\n"
)


def _channel_cache(ps: str) -> str:
    """grpc_channel.cc's line for job ps, its task 0 at ``ps``."""
    return (
        "I tensorflow/core/distributed_runtime/rpc/grpc_channel.cc:215] Initialize "
        f"GrpcChannelCache for job ps -> {{0 -> {ps}:2222}}\n"
        "I tensorflow/core/distributed_runtime/rpc/grpc_channel.cc:215] Initialize "
        "GrpcChannelCache for job worker -> {0 -> localhost:2222, 1 -> 10.0.0.7:2222}\n"
    )


def test_a_host_name_that_does_not_resolve_is_the_waits_second_candidate() -> None:
    # The master's words are the same whether the task did not start or its name does not
    # resolve: the name is a candidate of its own, after the wait's finding.
    causes = _ranked(_WAITING)
    assert causes.index("cluster-task-unreachable") < causes.index("tf-config-unresolvable")
    text = _channel_cache("ps-0.default.svc.cluster.local") + _WAITING
    fix = _candidate(text, "tf-config-unresolvable")
    assert "getent hosts ps-0.default.svc.cluster.local" in fix and "IP addresses" in fix


@pytest.mark.parametrize("ps", ["10.0.0.5", "localhost", "[fd00::5]"], ids=["ipv4", "lo", "ipv6"])
def test_tasks_listed_by_address_rule_the_name_out(ps: str) -> None:
    assert _ranked(_channel_cache(ps) + _WAITING) == ["cluster-task-unreachable"]


def test_an_address_grpc_failed_to_connect_to_rules_the_name_out() -> None:
    # gRPC names the address the task's name resolved to: the name is not the cause.
    refused = (
        'E1030 14:05:12.000000000 61 subchannel.cc:1000] Connect failed: {"description":'
        '"Failed to connect to remote host: Connection refused","target_address":'
        '"ipv4:10.0.0.5:2222"}\n'
    )
    text = _channel_cache("ps-0.default.svc.cluster.local") + refused + _WAITING
    assert "tf-config-unresolvable" not in _ranked(text)


def test_waits_before_the_session_started_were_the_other_tasks_starting() -> None:
    # The master starts its session only once every task it waited for answered.
    text = (
        "I tensorflow/core/distributed_runtime/master.cc:221] CreateSession still waiting for "
        "response from worker: /job:worker/replica:0/task:2\n"
        "I tensorflow/core/distributed_runtime/master_session.cc:1004] Start master session "
        "2feaff26548834a9 with config: \n"
        "step 0, duration = 0.292\n"
    )
    assert "cluster-task-unreachable" not in _causes(text)
    # A session that started before the waits does not answer for them.
    assert "cluster-task-unreachable" in _causes(
        "I tensorflow/core/distributed_runtime/master_session.cc:1004] Start master session "
        "2feaff26548834a9 with config: \n"
        "I tensorflow/core/distributed_runtime/master.cc:221] CreateSession still waiting for "
        "response from worker: /job:worker/replica:0/task:2\n"
    )


def test_the_session_once_started_is_not_a_wait() -> None:
    text = (
        "I tensorflow/core/distributed_runtime/master_session.cc:1004] Start master session "
        "2feaff26548834a9 with config:\n"
        "I tensorflow/core/distributed_runtime/rpc/grpc_server_lib.cc:324] Started server with "
        "target: grpc://localhost:2222\n"
    )
    assert "cluster-task-unreachable" not in _causes(text)


# --- graphs across releases ------------------------------------------------------------------


def test_a_graph_older_than_the_code_reading_it() -> None:
    text = (
        "tensorflow.python.framework.errors_impl.NotFoundError: No attr named 'index_type' in "
        "NodeDef:\n"
        "\t [[Node: head/ones = Fill[T=DT_FLOAT](head/Shape, head/Const)]]\n"
    )
    fix = _finding(text, "graph-from-older-tensorflow")
    assert "index_type" in fix and "import_graph_def" in fix


def test_internal_attributes_and_pythons_get_attr_are_not_an_older_graph() -> None:
    for text in (
        "NotFoundError: No attr named '_class' in NodeDef:\n",
        'ValueError: No attr named \'T\' in name: "x"\nop: "Placeholder"\n',
        "NotFoundError: No attr named 'T' found in AttrBuilder for MatMul\n",
        "W tensorflow/core/grappler/optimizers/meta_optimizer.cc:502] function_optimizer failed: "
        "Not found: No attr named 'Tidx' in NodeDef:\n",
        # Any pass of Grappler's, by its own name.
        "W tensorflow/core/grappler/optimizers/meta_optimizer.cc:502] constant_folding failed: "
        "Not found: No attr named 'T' in NodeDef:\n",
        "W tensorflow/core/grappler/optimizers/meta_optimizer.cc:533] remapper failed: "
        "NOT_FOUND: No attr named 'data_format' in NodeDef:\n",
    ):
        assert "graph-from-older-tensorflow" not in _causes(text), text


def test_a_graph_newer_than_the_runtime_stays_the_ops_reading() -> None:
    text = (
        "E tensorflow/core/common_runtime/executor.cc:651] Executor failed to create kernel. "
        "Invalid argument: NodeDef mentions attr 'index_type' not in Op<name=Fill; "
        "signature=dims:int32, value:T -> output:T; attr=T:type>; NodeDef: a/ones = "
        "Fill[T=DT_INT32, index_type=DT_INT32](a/Reshape, a/delta). (Check whether your "
        "GraphDef-interpreting binary is up to date with your GraphDef-generating binary.).\n"
    )
    causes = _causes(text)
    assert "op-not-registered" in causes and "graph-from-older-tensorflow" not in causes


# --- Keras configurations across releases ----------------------------------------------------


def test_an_initializer_class_refused_by_multi_backend_keras() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.6/site-packages/keras/utils/generic_utils.py", line 140, in '
        "deserialize_keras_object\n"
        "    ': ' + class_name)\n"
        "ValueError: Unknown initializer: GlorotUniform\n"
    )
    fix = _finding(text, "model-from-newer-keras")
    assert "tf.keras.models.load_model" in fix and "2.3.1" in fix


def test_an_initializer_class_refused_by_tensorflow_js() -> None:
    text = (
        "Uncaught (in promise) Error: Unknown initializer: HeNormal\n"
        "    at deserializeKerasObject (tfjs@0.12.0:2)\n"
        "    at deserializeInitializer (tfjs@0.12.0:2)\n"
    )
    fix = _finding(text, "model-from-newer-keras")
    assert "@tensorflow/tfjs" in fix


def test_a_class_every_keras_has_or_a_projects_own_is_not_a_newer_model() -> None:
    for text in (
        "ValueError: Unknown initializer: MyInit\n",
        "ValueError: Unknown initializer: RandomNormal\n",
        "ValueError: Unknown initializer: GlorotUniformPlus\n",
    ):
        assert "model-from-newer-keras" not in _causes(text), text


# --- Open MPI's interfaces -------------------------------------------------------------------


def test_open_mpi_answered_by_another_process_is_an_unpinned_interface() -> None:
    text = (
        "[gpu02][[40125,1],5][btl_tcp_endpoint.c:626:mca_btl_tcp_endpoint_recv_connect_ack] "
        "received unexpected process identifier [[40125,1],2]\n"
    )
    fix = _finding(text, "mpi-interface-unpinned")
    assert "btl_tcp_if_exclude" in fix and "NCCL_SOCKET_IFNAME" in fix


def test_open_mpis_local_socket_answered_by_another_process_is_not_an_interface() -> None:
    # ORTE's and PMIx's Unix-socket channels (a process and its host's daemon) check the same.
    for line in (
        "[gpu02:08112] [[40125,1],0] usock_peer_recv_connect_ack: received unexpected process "
        "identifier [[40125,0],0] from [[40125,0],1]",
        "usock_peer_recv_connect_ack: [[40125,1],0] received unexpected process identifier "
        "([[40125,0],2]) from server: expected ([[40125,0],1])",
    ):
        assert "mpi-interface-unpinned" not in _causes(line + "\n"), line


def test_open_mpis_other_connection_failures_are_not_the_interface() -> None:
    text = (
        "[gpu02][[40125,1],5][btl_tcp_endpoint.c:803:mca_btl_tcp_endpoint_complete_connect] "
        "connect() to 10.0.0.3 failed: Connection refused (111)\n"
    )
    assert "mpi-interface-unpinned" not in _causes(text)


# --- TF Hub's two formats --------------------------------------------------------------------


def test_a_tf1_hub_model_fine_tuned_through_keras_layer() -> None:
    text = (
        "ValueError: Setting hub.KerasLayer.trainable = True is unsupported when loading from "
        "the TF1 Hub format.\n"
    )
    fix = _finding(text, "hub-model-format-mismatch")
    assert "TF2 SavedModel" in fix and "trainable=False" in fix


def test_a_savedmodel_without_a_callable_needs_a_signature() -> None:
    text = (
        "ValueError: Signature name has to be specified for non-callable saved models (if not "
        "legacy TF1 Hub format).\n"
    )
    fix = _finding(text, "hub-model-format-mismatch")
    assert "signature='serving_default'" in fix and "saved_model_cli" in fix


def test_keras_layers_other_refusals_are_not_the_format() -> None:
    for text in (
        "ValueError: Setting hub.KerasLayer.trainable = True is unsupported when calling a "
        "SavedModel signature.\n",
        "ValueError: Loaded object is not callable and has no signatures.\n",
    ):
        assert "hub-model-format-mismatch" not in _causes(text), text
