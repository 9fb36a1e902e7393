"""Distributed-training failures explain reads in the forms they take: NCCL's CUDA calls
failing (an NCCL built for another CUDA release), in NCCL's, TensorFlow's, Horovod's and other
frameworks' words; and the collective executor refusing a member of a group, in TensorFlow's
wordings before and after 2.5. The lines here are written for the tests."""

from __future__ import annotations

import dataclasses

import pytest

from tests import factories as f
from tests.explaining import explained, fix_text, one_error, problem_causes
from tfdoctor.explain import BUILDERS, Hits, Revealed
from tfdoctor.facts import CondaFacts, CondaPackage
from tfdoctor.findings import Severity
from tfdoctor.machine import view
from tfdoctor.signatures import load_signatures

NCCL_CUDA, COLLECTIVE, PEER = (
    "nccl-cuda-mismatch",
    "cluster-collective-failed",
    "cluster-worker-failed",
)


#: A log, the cause it must get (an error, exactly once) and a word its fix holds.
RECOGNISED = [
    # NCCL's CUDA calls failing, whoever reports it.
    pytest.param(
        "tensorflow.python.framework.errors_impl.UnknownError: ncclCommInitAll failed: "
        "unhandled cuda error",
        NCCL_CUDA,
        "libnccl2",
        id="nccl-init-all",
    ),
    pytest.param(  # TensorFlow's NcclManager, inside the collective's abort
        "E0412 base_collective_executor.cc:249] BaseCollectiveExecutor::StartAbort UNKNOWN: "
        "Error invoking NCCL: unhandled cuda error",
        NCCL_CUDA,
        "libnccl2",
        id="tensorflow-nccl-manager",
    ),
    pytest.param(  # NCCL 2.13 and later add where to look
        "UnknownError: Error invoking NCCL: unhandled cuda error (run with NCCL_DEBUG=INFO for "
        "details)\n\t [[{{node CollectiveReduceV2}}]]",
        NCCL_CUDA,
        "LD_LIBRARY_PATH",
        id="nccl-debug-hint",
    ),
    pytest.param(
        "horovod.common.exceptions.HorovodInternalError: NCCL error: unhandled cuda error",
        NCCL_CUDA,
        "Horovod",
        id="horovod",
    ),
    pytest.param(
        "w1:77:90 [1] NCCL WARN transport/p2p.cc:190 unhandled cuda error",
        NCCL_CUDA,
        "libnccl",
        id="nccl-warn",
    ),
    pytest.param(  # the result's own name, as other frameworks print it
        "RuntimeError: NCCL communicator was aborted\nncclUnhandledCudaError: Call to CUDA "
        "function failed.",
        NCCL_CUDA,
        "libnccl2",
        id="result-name",
    ),
    # A member of a collective group that does not fit it.
    pytest.param(
        "W0301 base_collective_executor.cc:249] BaseCollectiveExecutor::StartAbort INTERNAL: "
        "Device /job:worker/replica:0/task:2/device:GPU:0 is joining a group with incompatible "
        "device typeCPU (group_key=7)",
        COLLECTIVE,
        "CUDA_VISIBLE_DEVICES",
        id="device-type",
    ),
    pytest.param(
        "InternalError: Collective ops is aborted by: Device /job:worker/replica:0/task:1/"
        "device:GPU:1 is joining a group with size2, but that group has size 3 (group_key=2)\n"
        "The error could be from a previous operation. Restart your program to reset.",
        COLLECTIVE,
        "RING",
        id="group-size",
    ),
    pytest.param(
        "Device /job:worker/replica:0/task:0/device:CPU:0 is joining a group that is already "
        "full (group_key=4)",
        COLLECTIVE,
        "one strategy",
        id="group-full",
    ),
    pytest.param(  # before TensorFlow 2.5
        "InternalError: Collective Op CollectiveReduce is assigned to device /job:worker/"
        "replica:0/task:0/device:CPU:0 with type CPU and group_key 3 but that group has type GPU",
        COLLECTIVE,
        "CUDA_VISIBLE_DEVICES",
        id="old-device-type",
    ),
    pytest.param(  # 2.0-2.2 wrote no space before the key
        "Collective Op allreduce_1/CollectiveReduce has group_size 8 and group_key5 but that "
        "group has size 4",
        COLLECTIVE,
        "RING",
        id="old-group-size",
    ),
]


@pytest.mark.parametrize(("log", "cause", "fix_word"), RECOGNISED)
def test_each_wording_is_an_error_of_its_cause(log: str, cause: str, fix_word: str) -> None:
    assert fix_word in fix_text(one_error(explained(log), cause))


#: A log like a family's that must not get its cause.
NOT_RECOGNISED = [
    pytest.param(
        "NCCL: unhandled system error (run with NCCL_DEBUG=INFO for details)",
        NCCL_CUDA,
        id="system",
    ),
    pytest.param(
        "UnknownError: Error invoking NCCL: internal error - please report this issue to the "
        "NCCL developers",
        NCCL_CUDA,
        id="internal",
    ),
    pytest.param(
        "ncclRemoteError: A call failed possibly due to a network error or a remote process "
        "exiting prematurely.",
        NCCL_CUDA,
        id="remote",
    ),
    pytest.param(  # a CUDA failure that names no NCCL
        "RuntimeError: unhandled cuda error in the custom kernel", NCCL_CUDA, id="no-nccl"
    ),
    pytest.param(  # NCCL's start-up line alone is no failure
        "worker-0:812:812 [0] NCCL INFO NCCL version 2.18.3+cuda12.2", NCCL_CUDA, id="version"
    ),
    pytest.param(  # a peer that went away is not a group that disagrees
        "UnavailableError: Collective ops is aborted by: Socket closed\nThe error could be from "
        "a previous operation. Restart your program to reset.",
        COLLECTIVE,
        id="socket-closed",
    ),
    pytest.param(
        "I0301 collective_param_resolver_local.cc:400] Device /job:worker/replica:0/task:0/"
        "device:GPU:0 is joining a group of 4 devices",
        COLLECTIVE,
        id="joining-prose",
    ),
]


@pytest.mark.parametrize(("log", "cause"), NOT_RECOGNISED)
def test_a_near_miss_does_not_get_the_cause(log: str, cause: str) -> None:
    assert cause not in problem_causes(explained(log))


@pytest.mark.parametrize(
    "result",
    [
        "invalid usage (run with NCCL_DEBUG=WARN for details)",
        "internal error - please report this issue to the NCCL developers",
        "invalid argument",
    ],
)
def test_an_abort_by_nccls_own_failure_is_no_peer_gone(result: str) -> None:
    log = f"InternalError: Collective ops is aborted by: Error invoking NCCL: {result}"
    assert problem_causes(explained(log)) == {COLLECTIVE}


#: XLA's status for a failed NCCL call (nccl_utils.cc in TensorFlow's tree, later
#: openxla/xla's nccl_errors.h: "NCCL operation <call> failed: <ncclGetErrorString>", the
#: later one followed by NCCL's last warning).
_XLA_NCCL = "INTERNAL: external/local_xla/xla/service/gpu/nccl_api.cc:541: NCCL operation {}"


@pytest.mark.parametrize(
    "log",
    [
        _XLA_NCCL.format(
            "ncclCommInitRank(&comm, nranks, id, rank) failed: unhandled system error (run "
            "with NCCL_DEBUG=INFO for details). Last NCCL warning(error) log entry (may be "
            "unrelated) 'socketStartConnect: Connect to 10.0.0.2<41267> failed : No route to host'."
        ),
        _XLA_NCCL.format(
            "ncclCommInitRankConfig(&comm, nranks, *id, rank, &config) failed: invalid usage "
            "(run with NCCL_DEBUG=WARN for details)."
        ),
        "UnknownError: Error invoking NCCL: unhandled system error (run with NCCL_DEBUG=INFO "
        "for details)",
        "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or "
        "device error.",
    ],
    ids=["xla-system", "xla-usage", "tensorflow-system", "result-name"],
)
def test_nccls_own_failure_in_each_programs_words_is_the_collective(log: str) -> None:
    assert problem_causes(explained(log)) == {COLLECTIVE}
    assert "NCCL_DEBUG=INFO" in fix_text(one_error(explained(log), COLLECTIVE))


@pytest.mark.parametrize(
    "log",
    [
        "OSError: unhandled system error while reading the archive",
        "INTERNAL: NCCL operation ncclGroupEnd() failed: remote process exited or there was a "
        "network error",
        # NCCL's own INFO line: a retry that went on.
        "node1:1234:1234 [0] NCCL INFO Retrying after ncclSystemError on attempt 1; retry "
        "succeeded",
        # Code that tests for the result.
        "    if (res == ncclSystemError) {\n"
        '      LOG(WARNING) << "NCCL returned an unhandled system error; retrying";\n'
        "    }",
    ],
    ids=["no-nccl", "xla-remote", "nccl-info-retry", "code"],
)
def test_other_failures_are_not_nccls_own(log: str) -> None:
    assert COLLECTIVE not in problem_causes(explained(log))


#: NCCL's own warning that it could not create its shared memory in /dev/shm (shmutils.cc).
_SHM_WARNING = "Error while creating shared memory segment /dev/shm/nccl-vzIpS6 (size 9637888)"


@pytest.mark.parametrize(
    "log",
    [
        _XLA_NCCL.format(
            "ncclCommInitRankConfig(&comm, nranks, *id, rank, &config) failed: unhandled system "
            "error (run with NCCL_DEBUG=INFO for details). Last NCCL warning(error) log entry "
            f"(may be unrelated) '{_SHM_WARNING}'."
        ),
        f"node1:1234:1250 [0] include/shm.h:28 NCCL WARN {_SHM_WARNING}\n"
        + _XLA_NCCL.format(
            "ncclCommInitRank(&comm, nranks, id, rank) failed: unhandled system error (run with "
            "NCCL_DEBUG=INFO for details)"
        ),
        f"node1:1234:1250 [0] include/shm.h:28 NCCL WARN {_SHM_WARNING}\n"
        "UnknownError: Collective ops is aborted by: Error invoking NCCL: unhandled system error "
        "(run with NCCL_DEBUG=INFO for details)",
    ],
    ids=["xla-quoted-warning", "xla-after-warning", "tensorflow-after-warning"],
)
def test_nccls_shared_memory_warning_is_its_system_error(log: str) -> None:
    # The system error NCCL returned is the shared memory it could not create: one cause.
    assert problem_causes(explained(log)) == {"nccl-shm-too-small"}


def test_nccls_remote_error_is_a_peer_gone() -> None:
    log = (
        "UnavailableError: Collective ops is aborted by: Error invoking NCCL: remote process "
        "exited or there was a network error"
    )
    assert problem_causes(explained(log)) == {PEER}


def test_an_abort_is_the_failure_it_quotes_not_a_peer_gone() -> None:
    log = (
        "UnknownError: Collective ops is aborted by: Error invoking NCCL: unhandled cuda error\n"
        "The error could be from a previous operation. Restart your program to reset."
    )
    assert problem_causes(explained(log)) == {NCCL_CUDA}
    # The abort beside another line is still a peer's failure.
    other = "UnavailableError: Collective ops is aborted by: Socket closed\n" + log
    assert problem_causes(explained(other)) == {NCCL_CUDA, PEER}


def test_the_fix_says_which_cuda_the_loaded_nccl_was_built_for() -> None:
    log = (
        "gpu01:3301:3301 [0] NCCL INFO NCCL version 2.1.2+cuda9.0\n"
        "UnknownError: ncclCommInitRank failed: unhandled cuda error"
    )
    finding = one_error(explained(log), NCCL_CUDA)
    assert "built for CUDA 9.0" in fix_text(finding)
    assert "NCCL 2.1.2 built for CUDA 9.0" in finding.detail
    # Nothing shows the framework's CUDA or where its libraries come from: NVIDIA's packages,
    # with the other ways named.
    assert "+cudaX.Y" in fix_text(finding) and "nvidia-nccl-cuXX" in fix_text(finding)


LOG = "UnknownError: Error invoking NCCL: unhandled cuda error"


def test_pip_wheels_get_the_nccl_wheel_the_release_pins() -> None:
    finding = one_error(explained(LOG, f.facts()), NCCL_CUDA)
    assert finding.fix is not None
    assert any('"nvidia-nccl-cu12==2.16.5"' in c for c in finding.fix.commands)
    assert "CUDA 12.2" in finding.fix.text and "apt-get" not in fix_text(finding)


def test_the_pinned_wheel_installed_leaves_the_shadowing_nccl() -> None:
    facts = f.facts(packages=f.packages(f.pkg("nvidia-nccl-cu12", "2.16.5")))
    finding = one_error(explained(LOG, facts), NCCL_CUDA)
    assert finding.fix is not None
    assert "is installed" in finding.fix.text and "LD_LIBRARY_PATH" in finding.fix.text
    assert not any("install" in c and "nccl" in c for c in finding.fix.commands)


def test_a_conda_environment_gets_condas_nccl_for_the_build_cuda() -> None:
    prefix = "/opt/conda/envs/tf"
    conda_tf = CondaPackage("tensorflow", "2.15.0", "cuda120py311", "conda-forge")
    facts = f.facts(
        python=f.python(env_kind="conda", prefix=prefix), conda=CondaFacts(prefix, (conda_tf,))
    )
    finding = one_error(explained(LOG, facts), NCCL_CUDA)
    assert finding.fix is not None
    assert "conda install -c conda-forge nccl cuda-version=12.2" in finding.fix.commands
    assert not any("pip" in c for c in finding.fix.commands)


def test_pip_tensorflow_inside_conda_gets_the_wheel_it_pins() -> None:
    facts = f.facts(python=f.python(env_kind="conda", prefix="/opt/conda/envs/tf"))
    finding = one_error(explained(LOG, facts), NCCL_CUDA)
    assert finding.fix is not None
    assert any('"nvidia-nccl-cu12==2.16.5"' in c for c in finding.fix.commands)
    assert finding.fix.commands[0] == "export NCCL_DEBUG=INFO"


def test_a_release_without_nccl_wheels_gets_nvidias_package_for_its_cuda() -> None:
    tf = f.tensorflow(version="2.13.1", cuda_version="11.8")
    facts = f.facts(tensorflow=tf, packages=(f.pkg("tensorflow", "2.13.1"),))
    finding = one_error(explained(LOG, facts), NCCL_CUDA)
    assert "+cuda11.8" in fix_text(finding)


@pytest.mark.parametrize(
    ("warning", "kept"),
    [
        pytest.param("Cuda failure 2 'out of memory'", {"gpu-out-of-memory"}, id="oom"),
        pytest.param(
            "Cuda failure 217 'peer access is not supported between these two devices'",
            {COLLECTIVE},
            id="peer-access",
        ),
        # A driver older than NCCL's CUDA is NCCL's build too: both causes stand.
        pytest.param(
            "Cuda failure 'CUDA driver version is insufficient for CUDA runtime version'",
            {"driver-too-old", NCCL_CUDA},
            id="driver-older-than-nccl-cuda",
        ),
    ],
)
def test_nccls_own_warning_names_the_cuda_failure(warning: str, kept: set[str]) -> None:
    log = f"w2:901:944 [1] misc/utils.cc:51 NCCL WARN {warning}\n{LOG}"
    assert problem_causes(explained(log)) == kept


@pytest.mark.parametrize(
    ("log", "fix_word"),
    [
        pytest.param(
            "gpu3:4410:4410 [0] NCCL INFO NCCL_SOCKET_IFNAME set to ib1\n"
            "gpu3:4410:4410 [0] bootstrap.cc:45 NCCL WARN Bootstrap : no socket interface "
            "found\nUnknownError: Error invoking NCCL: internal error",
            "NCCL_SOCKET_IFNAME to the interface",
            id="socket-interface",
        ),
        pytest.param(
            "gpu3:4410:4502 [1] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion "
            "from peer 10.4.0.7<40911> with error 12, opcode 0, len 0, vendor err 129 (Recv)\n"
            "InternalError: Collective ops is aborted by: Error invoking NCCL: unhandled "
            "system error",
            "NCCL_IB_DISABLE=1",
            id="infiniband-completion",
        ),
        pytest.param(
            "gpu3:4410:4502 [1] misc/ibvwrap.cc:252 NCCL WARN Call to ibv_reg_mr failed with "
            "error Cannot allocate memory",
            "ulimit -l",
            id="infiniband-verbs",
        ),
        pytest.param(
            "vm-2:812:870 [1] transport/p2p.cc:275 NCCL WARN Cuda failure 217 'peer access "
            "is not supported between these two devices'",
            "nvidia-smi topo -m",
            id="peer-access",
        ),
        pytest.param(  # NCCL names no transport: the general advice
            "InternalError: NCCL: unhandled system error (run with NCCL_DEBUG=INFO for details)",
            "NCCL_SOCKET_IFNAME",
            id="unnamed",
        ),
    ],
)
def test_the_fix_follows_the_transport_nccls_warning_names(log: str, fix_word: str) -> None:
    assert fix_word in fix_text(one_error(explained(log), COLLECTIVE))


#: XLA's status for NCCL's failed call, quoting NCCL's last warning (nccl_errors.h).
_XLA_QUOTED = _XLA_NCCL.format(
    "ncclCommInitRankConfig(&comm, nranks, *id, rank, &config) failed: unhandled {} error (run "
    "with NCCL_DEBUG=INFO for details). Last NCCL warning(error) log entry (may be unrelated) "
    "'{}'."
)


@pytest.mark.parametrize(
    ("log", "fix_word"),
    [
        pytest.param(
            _XLA_QUOTED.format("system", "Bootstrap : no socket interface found"),
            "NCCL_SOCKET_FAMILY",
            id="socket-interface",
        ),
        pytest.param(
            _XLA_QUOTED.format("system", "Call to ibv_reg_mr failed with error Cannot allocate"),
            "ulimit -l",
            id="infiniband-verbs",
        ),
        pytest.param(
            _XLA_QUOTED.format(
                "cuda", "Cuda failure 217 'peer access is not supported between these two devices'"
            ),
            "nvidia-smi topo -m",
            id="peer-access",
        ),
    ],
)
def test_the_fix_follows_the_transport_nccls_warning_quoted_by_xla_names(
    log: str, fix_word: str
) -> None:
    assert problem_causes(explained(log)) == {COLLECTIVE}
    assert fix_word in fix_text(one_error(explained(log), COLLECTIVE))


def test_no_socket_interface_is_told_as_nccl_chooses() -> None:
    # Left to itself NCCL falls back to docker* and then lo (misc/socket.cc): only the
    # variables that narrow its choice leave it no interface.
    log = "w1:10:12 [0] NCCL WARN Bootstrap : no socket interface found"
    text = fix_text(one_error(explained(log), COLLECTIVE))
    assert "leaves out" not in text and "NCCL_SOCKET_FAMILY" in text


def test_two_transports_failing_get_the_general_advice() -> None:
    log = (
        "w1:10:12 [0] NCCL WARN Bootstrap : no socket interface found\n"
        "w1:10:12 [0] NCCL WARN Call to ibv_modify_qp failed with error Connection timed out"
    )
    text = fix_text(one_error(explained(log), COLLECTIVE))
    assert "NCCL_DEBUG=INFO" in text and "NCCL_IB_DISABLE" not in text


#: NCCL's verbs wrapper failing as its IB transport starts (misc/ibvwrap.cc).
_IBV_FAILED = (
    "w1:10:10 [0] misc/ibvwrap.cc:98 NCCL WARN Call to ibv_open_device failed\n"
    "w1:10:10 [0] NCCL INFO NET/IB : No device found.\n"
)


@pytest.mark.parametrize(
    "after",
    [
        pytest.param(  # net_socket.cc, then init.cc: NCCL's next transport
            "w1:10:10 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.5<0>\n"
            "w1:10:10 [0] NCCL INFO Using network Socket\n",
            id="socket-chosen",
        ),
        pytest.param(
            "Epoch 1/3\n100/100 [==============================] - 9s 60ms/step - loss: 0.41\n",
            id="run-went-on",
        ),
    ],
)
def test_a_verbs_call_nccl_went_on_past_is_a_note(after: str) -> None:
    found = [x for x in explained(_IBV_FAILED + after).findings if x.cause == COLLECTIVE]
    assert found and all(x.severity.rank < Severity.WARNING.rank for x in found)


def test_a_verbs_call_that_ended_the_run_stays_an_error() -> None:
    log = (
        _IBV_FAILED + "w1:10:10 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.5<0>\n"
        "Traceback (most recent call last):\n"
        '  File "train.py", line 9, in <module>\n'
        "    strategy.run(step)\n"
        "tensorflow.python.framework.errors_impl.UnknownError: Error invoking NCCL: unhandled "
        "system error\n"
    )
    assert one_error(explained(log), COLLECTIVE).severity is Severity.ERROR
    # A completion error is the fabric failing under a running collective: never a note.
    completion = (
        "w1:10:12 [0] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer "
        "10.0.0.6<40911> with error 12, opcode 0, len 0, vendor err 129 (Recv)\n"
        "w1:10:10 [0] NCCL INFO Using network Socket\n"
    )
    assert one_error(explained(completion), COLLECTIVE).severity is Severity.ERROR


def test_ranks_with_other_nccl_releases_are_nodes_that_differ() -> None:
    log = (
        "gpu-b:700:780 [0] init.cc:612 NCCL WARN Mismatched NCCL version detected : rank 1 "
        "version 21805 rank 0 version 21403\n"
        "InternalError: Collective ops is aborted by: Error invoking NCCL: invalid usage"
    )
    text = fix_text(one_error(explained(log), "fleet-fact-differs"))
    assert "rank 1 has NCCL 2.18.5, rank 0 has NCCL 2.14.3" in text
    assert "ldconfig -p | grep libnccl" in text


def test_each_nodes_nccl_is_listed_by_this_environments_packager() -> None:
    log = (
        "gpu-b:700:780 [0] init.cc:612 NCCL WARN Mismatched NCCL version detected : rank 1 "
        "version 21805 rank 0 version 21403"
    )
    venv = fix_text(one_error(explained(log, f.facts()), "fleet-fact-differs"))
    assert "/opt/venv/bin/python -m pip list" in venv and "conda list" not in venv
    conda = f.facts(python=f.python(env_kind="conda", prefix="/opt/conda/envs/tf"))
    assert "conda list nccl" in fix_text(one_error(explained(log, conda), "fleet-fact-differs"))


def test_another_signature_of_nodes_that_differ_gets_no_nccl_fix() -> None:
    # The builder follows the signature read: only NCCL's own check names NCCL.
    nccl = load_signatures().by_id("nccl-version-mismatch")
    other = dataclasses.replace(
        nccl, id="driver-differs", summary="The workers run different NVIDIA drivers"
    )
    machine = view(f.facts(), f.FIXTURE_MATRIX)
    cause, fix = BUILDERS["fleet-fact-differs"](machine, Revealed(), [Hits(other, count=1)])
    assert cause == "fleet-fact-differs"
    text = " ".join((fix.text, *fix.commands))
    assert "nccl" not in text.lower() and "different NVIDIA drivers" in text
    cause, fix = BUILDERS["fleet-fact-differs"](machine, Revealed(), [Hits(nccl, count=1)])
    assert "ldconfig -p | grep libnccl  # on every node" in fix.commands
