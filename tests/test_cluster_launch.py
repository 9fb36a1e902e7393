"""The launch recipes in docker/launch: Slurm batch script, Indexed Job, JobSet, TFJob.

The batch script runs for real under a stand-in ``srun`` with faked SLURM_* variables on
loopback; the manifests are validated against Kubernetes' schemas (kubernetes-validate) where
they are core kinds, structurally where they are custom resources, and the script that builds
each pod's TF_CONFIG runs under ``sh``.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Optional

import pytest
import yaml

from tests.test_cluster import FakeResolver
from tfdoctor.cluster import check_report
from tfdoctor.cluster.spec import check_environment, patient
from tfdoctor.findings import Severity

ROOT = Path(__file__).resolve().parent.parent
LAUNCH = ROOT / "docker" / "launch"
SBATCH = LAUNCH / "slurm.sbatch"
K8S = LAUNCH / "k8s"
TOOL_PATH = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
IN_CI = os.environ.get("CI") == "true"

#: A stand-in for srun: runs the command once per task of the job, concurrently, with the
#: variables srun sets for a step, each task's output in the file --output names; exits with
#: the last failing task's status. It insists on --kill-on-bad-exit=1.
FAKE_SRUN = r"""#!/bin/bash
set -u
kill_on_bad_exit=0
output=""
while [ $# -gt 0 ]; do
    case "$1" in
        --kill-on-bad-exit=1) kill_on_bad_exit=1 ;;
        --output=*) output="${1#--output=}" ;;
        -*) ;;
        *) break ;;
    esac
    shift
done
if [ "$kill_on_bad_exit" != 1 ]; then
    echo "srun: expected --kill-on-bad-exit=1" >&2
    exit 99
fi
step=$(cat .srun-steps 2>/dev/null || echo 0)
echo $((step + 1)) > .srun-steps
pids=()
for ((t = 0; t < SLURM_NTASKS; t++)); do
    file=${output//%x/$SLURM_JOB_NAME}
    file=${file//%j/$SLURM_JOB_ID}
    file=${file//%s/$step}
    file=${file//%t/$t}
    SLURM_PROCID=$t SLURM_LOCALID=$t SLURM_STEP_ID=$step SLURM_STEP_NUM_TASKS=$SLURM_NTASKS \
        SLURM_STEP_NODELIST=$SLURM_JOB_NODELIST SLURM_STEP_TASKS_PER_NODE=$SLURM_TASKS_PER_NODE \
        "$@" > "$file" 2>&1 &
    pids+=($!)
done
status=0
for pid in "${pids[@]}"; do
    wait "$pid" || status=$?
done
exit "$status"
"""


def tool(name: str) -> str:
    """A linter installed with the test extra; a test without it fails in CI, skips elsewhere."""
    exe = shutil.which(name, path=TOOL_PATH)
    if exe is None:
        if IN_CI:
            pytest.fail(f"{name} is missing: pip install -e .[test]")
        pytest.skip(f"{name} not installed (pip install -e .[test])")
    return exe


def stub_bin(tmp_path: Path) -> Path:
    """A bin directory with the stand-in srun and a ``tfdoctor`` that runs this checkout."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "srun").write_text(FAKE_SRUN, encoding="utf-8")
    (bin_dir / "tfdoctor").write_text(
        f'#!/bin/sh\nexec "{sys.executable}" -m tfdoctor "$@"\n', encoding="utf-8"
    )
    for exe in bin_dir.iterdir():
        exe.chmod(0o755)
    return bin_dir


def run_sbatch(tmp_path: Path, tasks_per_node: str) -> subprocess.CompletedProcess[str]:
    """The batch script under the stand-in srun: a 2-task job on this host, no smoke step;
    the training command writes each task's CUDA_VISIBLE_DEVICES to trained-<rank>."""
    env = {
        "PATH": os.pathsep.join([str(stub_bin(tmp_path)), "/usr/bin", "/bin"]),
        "PYTHONPATH": str(ROOT),
        "HOME": str(tmp_path),
        "SLURM_JOB_ID": "7",
        "SLURM_JOB_NAME": "tf-train",
        "SLURM_NTASKS": "2",
        "SLURM_JOB_NODELIST": "localhost",
        "SLURM_TASKS_PER_NODE": tasks_per_node,
        "SMOKE": "0",
    }
    train = 'echo "$CUDA_VISIBLE_DEVICES" > "trained-$SLURM_PROCID"'
    return subprocess.run(
        ["bash", str(SBATCH), "bash", "-c", train],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


def test_the_batch_script_trains_one_task_per_gpu_after_the_pre_flight(tmp_path: Path) -> None:
    out = run_sbatch(tmp_path, "2")
    assert out.returncode == 0, out.stdout + out.stderr
    # Each local task sees its own GPU, and wrote its own log (%t).
    assert [(tmp_path / f"trained-{t}").read_text(encoding="utf-8") for t in (0, 1)] == [
        "0\n",
        "1\n",
    ]
    check_log = (tmp_path / "logs" / "tf-train-7-0-1.out").read_text(encoding="utf-8")
    assert "Slurm step: 2 tasks; this process is worker 1" in check_log


def test_the_batch_script_stops_before_training_when_the_pre_flight_fails(
    tmp_path: Path,
) -> None:
    # Three tasks on the node for a two-task step: the step's variables do not add up.
    out = run_sbatch(tmp_path, "3")
    assert out.returncode == 2, out.stdout + out.stderr
    assert (tmp_path / ".srun-steps").read_text(encoding="utf-8") == "1\n"
    assert not list(tmp_path.glob("trained-*"))
    assert "slurm-inconsistent" in (tmp_path / "logs" / "tf-train-7-0-0.out").read_text(
        encoding="utf-8"
    )


def test_the_batch_script_fails_fast_and_kills_a_step_on_a_bad_task() -> None:
    text = SBATCH.read_text(encoding="utf-8")
    assert "\nset -euo pipefail\n" in text
    assert "#SBATCH --exclusive\n" in text
    assert "srun --kill-on-bad-exit=1 " in text
    assert "%t" in text and 'CUDA_VISIBLE_DEVICES="$SLURM_LOCALID"' in text
    # One task per GPU: as many tasks on each node as GPUs.
    options = dict(
        line.removeprefix("#SBATCH --").split("=", 1)
        for line in text.splitlines()
        if line.startswith("#SBATCH --") and "=" in line
    )
    tasks = options["ntasks-per-node"].split()[0]
    assert tasks == options["gpus-per-node"].split()[0]
    assert os.access(SBATCH, os.X_OK)


def test_the_batch_script_passes_shellcheck() -> None:
    argv = [tool("shellcheck"), "--shell=bash", "--severity=style", str(SBATCH)]
    found = subprocess.run(argv, stdout=subprocess.PIPE, text=True, timeout=60, check=False)
    assert found.stdout == ""


# --- Kubernetes --------------------------------------------------------------------------------


def documents(name: str) -> list[dict[str, Any]]:
    """The YAML documents of a manifest in docker/launch/k8s."""
    docs = list(yaml.safe_load_all((K8S / name).read_text(encoding="utf-8")))
    assert all(isinstance(d, dict) for d in docs)
    return docs


def validate(doc: dict[str, Any]) -> None:
    """``doc`` against the Kubernetes schemas kubernetes-validate bundles (strict: no field
    the schema lacks)."""
    try:
        kubernetes_validate = importlib.import_module("kubernetes_validate")
    except ImportError:
        if IN_CI:
            pytest.fail("kubernetes-validate is missing: pip install -e .[test]")
        pytest.skip("kubernetes-validate not installed (pip install -e .[test])")
    kubernetes_validate.validate(doc, kubernetes_validate.latest_version(), strict=True)


def _pod_spec_of_job(job_spec: dict[str, Any]) -> dict[str, Any]:
    spec: dict[str, Any] = job_spec["template"]["spec"]
    return spec


def container(pod_spec: dict[str, Any]) -> dict[str, Any]:
    (only,) = pod_spec["containers"]
    assert isinstance(only, dict)
    return only


def assert_gpu_worker(pod_spec: dict[str, Any], name: str = "worker") -> dict[str, Any]:
    """One container per pod, limited to one GPU, from the image with tfdoctor built in, which
    checks, smoke-tests and only then trains; nothing installed at run time."""
    box = container(pod_spec)
    assert box["name"] == name
    assert box["resources"]["limits"]["nvidia.com/gpu"] == 1
    assert box["image"].endswith("/tf-gpu:2.21.0")
    script = box["args"][-1]
    assert "pip install" not in script
    checked = script.index("tfdoctor cluster check --wait-dns")
    smoked = script.index("tfdoctor cluster smoke")
    assert checked < smoked < script.index("exec python train.py")
    return box


def env_of(box: dict[str, Any]) -> dict[str, str]:
    return {e["name"]: e["value"] for e in box.get("env", [])}


def run_pod_script(
    tmp_path: Path, box: dict[str, Any], index: int, check_status: int = 0
) -> tuple[Optional[dict[str, Any]], list[str]]:
    """The container's script under ``sh`` with stand-in ``tfdoctor`` and ``python``: the
    TF_CONFIG it exported, and the commands run, in order."""
    bin_dir = tmp_path / "podbin"
    bin_dir.mkdir()
    log = tmp_path / "ran"
    (bin_dir / "tfdoctor").write_text(
        f'#!/bin/sh\necho "tfdoctor $*" >> {log}\nprintf %s "$TF_CONFIG" > {tmp_path}/tf_config\n'
        f'[ "$2" = check ] && exit {check_status}\nexit 0\n',
        encoding="utf-8",
    )
    (bin_dir / "python").write_text(f'#!/bin/sh\necho "python $*" >> {log}\n', encoding="utf-8")
    for exe in bin_dir.iterdir():
        exe.chmod(0o755)
    env = {
        **env_of(box),
        "JOB_COMPLETION_INDEX": str(index),
        "PATH": os.pathsep.join([str(bin_dir), "/usr/bin", "/bin"]),
    }
    subprocess.run(["sh", "-c", box["args"][-1]], env=env, timeout=30, check=False)
    config_file = tmp_path / "tf_config"
    config = json.loads(config_file.read_text(encoding="utf-8")) if config_file.exists() else None
    return config, log.read_text(encoding="utf-8").splitlines()


def test_indexed_job_and_its_headless_service_are_valid_kubernetes() -> None:
    service, job = documents("indexed-job.yaml")
    validate(service)
    validate(job)
    assert service["spec"]["clusterIP"] == "None"
    assert service["spec"]["publishNotReadyAddresses"] is True
    spec = job["spec"]
    assert spec["completionMode"] == "Indexed"
    pod = _pod_spec_of_job(spec)
    assert pod["subdomain"] == service["metadata"]["name"]
    box = assert_gpu_worker(pod)
    workers = int(env_of(box)["WORKERS"])
    assert spec["completions"] == spec["parallelism"] == workers


def test_each_pod_of_the_indexed_job_gets_a_tf_config_tfdoctor_accepts(tmp_path: Path) -> None:
    _, job = documents("indexed-job.yaml")
    box = container(_pod_spec_of_job(job["spec"]))
    config, ran = run_pod_script(tmp_path, box, index=2)
    names = [f"trainer-{i}.trainer" for i in range(4)]
    assert config == {
        "cluster": {"worker": [f"{n}:2222" for n in names]},
        "task": {"type": "worker", "index": 2},
    }
    assert ran == [
        "tfdoctor cluster check --wait-dns 300",
        "tfdoctor cluster smoke --timeout 120",
        "python train.py",
    ]
    _, findings = check_environment({"TF_CONFIG": json.dumps(config)}, FakeResolver(*names))
    assert not [x for x in findings if x.severity is Severity.ERROR]


def test_a_pod_stops_before_training_when_the_pre_flight_fails(tmp_path: Path) -> None:
    _, job = documents("indexed-job.yaml")
    _, ran = run_pod_script(tmp_path, container(_pod_spec_of_job(job["spec"])), 0, 2)
    assert ran == ["tfdoctor cluster check --wait-dns 300"]


def test_jobset_runs_the_same_workers_under_its_own_names(tmp_path: Path) -> None:
    (jobset,) = documents("jobset.yaml")
    # A custom resource: its schema is not bundled; its Job template is a batch/v1 Job spec.
    assert (jobset["apiVersion"], jobset["kind"]) == ("jobset.x-k8s.io/v1alpha2", "JobSet")
    assert jobset["spec"]["network"] == {
        "enableDNSHostnames": True,
        "publishNotReadyAddresses": True,
    }
    (replicated,) = jobset["spec"]["replicatedJobs"]
    job_spec = replicated["template"]["spec"]
    validate({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "t"}, "spec": job_spec})
    box = assert_gpu_worker(_pod_spec_of_job(job_spec))
    assert job_spec["completions"] == job_spec["parallelism"] == int(env_of(box)["WORKERS"])
    config, _ = run_pod_script(tmp_path, box, index=1)
    # <jobset>-<replicated job>-<job index>-<pod index>.<jobset>
    assert config is not None
    assert config["cluster"]["worker"][3] == "trainer-workers-0-3.trainer:2222"
    prefix = f"{jobset['metadata']['name']}-{replicated['name']}-0"
    assert env_of(box)["HOST_PREFIX"] == prefix


def test_tfjob_names_its_container_tensorflow_and_limits_gpus() -> None:
    (tfjob,) = documents("tfjob.yaml")
    assert (tfjob["apiVersion"], tfjob["kind"]) == ("kubeflow.org/v1", "TFJob")
    (worker,) = tfjob["spec"]["tfReplicaSpecs"].values()
    assert worker["replicas"] >= 2
    pod = worker["template"]
    validate({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "t"}, "spec": pod["spec"]})
    # The operator finds the TensorFlow container by this name to write its TF_CONFIG.
    assert_gpu_worker(pod["spec"], name="tensorflow")


# --- --wait-dns -------------------------------------------------------------------------------


class LateResolver:
    """Resolves every name only ``after`` seconds from its first question (a pod starting)."""

    def __init__(self, after: float) -> None:
        self.after = after
        self.first: Optional[float] = None

    def __call__(self, host: str) -> Optional[str]:
        now = time.monotonic()
        self.first = self.first if self.first is not None else now
        return None if now - self.first >= self.after else "Name or service not known"


def test_wait_dns_looks_again_until_a_late_name_resolves() -> None:
    env = {"TF_CONFIG": json.dumps({"cluster": {"worker": ["a.invalid:1", "b.invalid:1"]}})}
    env["TF_CONFIG"] = env["TF_CONFIG"][:-1] + ', "task": {"type": "worker", "index": 0}}'
    impatient = check_report(env, LateResolver(0.8), "0", "now")
    assert [x.cause for x in impatient.findings if x.cause] == ["tf-config-unresolvable"]
    waited = check_report(env, LateResolver(0.8), "0", "now", wait_dns=5)
    assert not [x for x in waited.findings if x.severity is Severity.ERROR]


def test_wait_dns_gives_up_when_its_time_is_spent() -> None:
    started = time.monotonic()
    reason = patient(LateResolver(60), 1.0, pause=0.2)("a.invalid")
    assert reason == "Name or service not known"
    assert time.monotonic() - started < 3


def test_wait_dns_out_of_range_is_bad_input() -> None:
    from tests.commandline import tfdoctor

    out = tfdoctor("cluster", "check", "--wait-dns", "-1", environ={"PYTHONPATH": str(ROOT)})
    assert out.returncode == 3
    assert out.stderr.startswith("tfdoctor: error: --wait-dns") and out.stdout == ""
