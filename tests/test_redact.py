"""Redaction: secrets never reach any output; private mode also hides the machine's identity."""

from __future__ import annotations

import dataclasses
import json
import socket
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tfdoctor.facts import DriverFacts, Facts, GpuFacts, ProbeError, TensorFlowFacts
from tfdoctor.findings import Finding, Fix, Report, Severity
from tfdoctor.redact import MASK, Redactor, is_secret_name, redact_text, redact_tree
from tfdoctor.render.jsonout import render_json
from tfdoctor.render.markdown import render_markdown
from tfdoctor.render.text import render_text

PUBLIC = Redactor(private=False)
PRIVATE = Redactor(private=True, home="/var/lib/builder", hostname="gpu-node-17.cluster.example")

HF_TOKEN = "hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYz01234567"
GH_TOKEN = "ghp_" + "0123456789abcdefABCDEF0123456789abcd"
URL_PASSWORD = "s3cr3t-Passw0rd"
WANDB_KEY = "0123456789abcdef0123456789abcdef01234567"
UUID = "GPU-5f3c1a2b-7d4e-4f60-9a8b-0c1d2e3f4a5b"
MIG_UUID = "MIG-1a2b3c4d-5e6f-7a8b-9c0d-1e2f3a4b5c6d"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("https://user:pass@host/x", "https://user:***@host/x", id="url-password"),
        pytest.param(
            "/opt/lib:https://alice:p%40ss@mirror.example.com/lib:/usr/lib",
            "/opt/lib:https://alice:***@mirror.example.com/lib:/usr/lib",
            id="url-password-in-path-list",
        ),
        pytest.param(
            "https://token@github.com/x", "https://token@github.com/x", id="url-user-only-kept"
        ),
        pytest.param("http://host:8080/a@b", "http://host:8080/a@b", id="url-port-not-password"),
        pytest.param(f"token {GH_TOKEN} end", "token ghp_*** end", id="github-classic"),
        pytest.param(
            "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
            "github_pat_***",
            id="github-fine-grained",
        ),
        pytest.param(f"HF says {HF_TOKEN}.", "HF says hf_***.", id="hugging-face"),
        pytest.param("key AKIAIOSFODNN7EXAMPLE here", "key AKIA*** here", id="aws-key-id"),
        pytest.param("sk-proj-abcdefghijklmnopqrstuvwx", "sk-***", id="openai-style"),
        pytest.param(
            "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc",
            "Authorization: ***",
            id="authorization-header",
        ),
        pytest.param("curl -H 'bearer abcdefghijkl'", "curl -H 'bearer ***'", id="bearer"),
        pytest.param(
            "https://h/x?user=a&password=hunter2&x=1",
            "https://h/x?user=a&password=***&x=1",
            id="password-query-param",
        ),
        pytest.param("HF_TOKEN=abc123 python x.py", "HF_TOKEN=*** python x.py", id="env-assign"),
        pytest.param("--api-key=abc123", "--api-key=***", id="option-assign"),
        pytest.param(
            "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----",
            "-----BEGIN RSA PRIVATE KEY-----***-----END RSA PRIVATE KEY-----",
            id="pem-private-key",
        ),
        pytest.param(
            "LD_LIBRARY_PATH=/usr/local/cuda/lib64 TF_CPP_MIN_LOG_LEVEL=0",
            "LD_LIBRARY_PATH=/usr/local/cuda/lib64 TF_CPP_MIN_LOG_LEVEL=0",
            id="harmless-assignments-kept",
        ),
        pytest.param(
            "task-manager disk-usage hf_cache sk-short",
            "task-manager disk-usage hf_cache sk-short",
            id="lookalike-words-kept",
        ),
        pytest.param(f"{UUID} /home/alice", f"{UUID} /home/alice", id="public-keeps-identity"),
    ],
)
def test_secrets_are_always_redacted(text: str, expected: str) -> None:
    assert PUBLIC.text(text) == expected
    assert redact_text(text, private=False) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("/home/alice/venv/bin/python", "~/venv/bin/python", id="linux-home"),
        pytest.param("/Users/bob/miniconda3", "~/miniconda3", id="macos-home"),
        pytest.param(
            "C:\\Users\\carol\\AppData\\python.exe", "~\\AppData\\python.exe", id="windows-home"
        ),
        pytest.param("cd /home/alice", "cd ~", id="bare-home"),
        pytest.param("/home/alice/a:/home/dave/b", "~/a:~/b", id="home-path-list"),
        pytest.param("/var/lib/builder/.cache/x", "~/.cache/x", id="current-home"),
        pytest.param("/var/lib/builder2/x", "/var/lib/builder2/x", id="current-home-prefix-kept"),
        pytest.param(
            "ssh gpu-node-17.cluster.example and gpu-node-17:22",
            "ssh <hostname> and <hostname>:22",
            id="hostname-long-and-short",
        ),
        pytest.param("gpu-node-170 is another", "gpu-node-170 is another", id="other-host-kept"),
        pytest.param(f"uuid {UUID}.", "uuid GPU-***.", id="gpu-uuid"),
        pytest.param(f"CUDA_VISIBLE_DEVICES={MIG_UUID}", "CUDA_VISIBLE_DEVICES=MIG-***", id="mig"),
        pytest.param(f"MIG-{UUID}/1/0", "MIG-GPU-***/1/0", id="mig-legacy"),
        pytest.param(
            "https://alice:pw@host/home/x /home/alice/y",
            "https://alice:***@host/home/x ~/y",
            id="url-path-is-not-a-home",
        ),
    ],
)
def test_private_mode_hides_identity(text: str, expected: str) -> None:
    assert PRIVATE.text(text) == expected


def test_private_mode_uses_this_machines_home() -> None:
    home = str(Path.home())
    if len(home) <= 1:
        pytest.skip("this machine's home directory is /")
    assert redact_text(f"{home}/project and {home}", private=True) == "~/project and ~"
    assert redact_text(f"{home}/project", private=False) == f"{home}/project"


def test_private_mode_uses_this_machines_hostname() -> None:
    host = socket.gethostname()
    if len(host) < 3:
        pytest.skip(f"hostname {host!r} is too short to redact safely")
    assert redact_text(f"on host {host}.", private=True) == "on host <hostname>."


@pytest.mark.parametrize(
    ("hostname", "text"),
    [
        pytest.param("pc", "pc-1 pc", id="too-short"),
        pytest.param("", "anything", id="empty"),
    ],
)
def test_short_hostnames_are_left_alone(hostname: str, text: str) -> None:
    assert Redactor(private=True, hostname=hostname).text(text) == text


@pytest.mark.parametrize(
    ("name", "secret"),
    [
        pytest.param("HF_TOKEN", True, id="hf"),
        pytest.param("AWS_SECRET_ACCESS_KEY", True, id="aws"),
        pytest.param("WANDB_API_KEY", True, id="wandb"),
        pytest.param("PGPASSWORD", True, id="pg"),
        pytest.param("MY_PASSWD", True, id="passwd"),
        pytest.param("GOOGLE_APPLICATION_CREDENTIALS", True, id="credential"),
        pytest.param("NPM_AUTHTOKEN", True, id="auth"),
        pytest.param("LD_LIBRARY_PATH", False, id="ld-library-path"),
        pytest.param("CUDA_VISIBLE_DEVICES", False, id="cuda-visible"),
        pytest.param("TF_CPP_MIN_LOG_LEVEL", False, id="tf-log"),
        pytest.param("PWD", False, id="pwd"),
    ],
)
def test_secret_names(name: str, secret: bool) -> None:
    assert is_secret_name(name) is secret


def test_tree_masks_values_under_secret_keys_and_keeps_structure() -> None:
    data: dict[str, Any] = {
        "environment": {"HF_TOKEN": "plain-looking", "PATH": "/usr/bin", "NUM": 3},
        "list": [1, 2.5, True, None, "https://u:p@h/"],
    }
    assert redact_tree(data, private=False) == {
        "environment": {"HF_TOKEN": MASK, "PATH": "/usr/bin", "NUM": 3},
        "list": [1, 2.5, True, None, "https://u:***@h/"],
    }


def test_tree_redacts_dataclasses_and_keeps_enums() -> None:
    finding = Finding("env.x", Severity.WARNING, f"found {HF_TOKEN}", fix=Fix("t", (GH_TOKEN,)))
    out = PUBLIC.tree(finding)
    assert out == Finding("env.x", Severity.WARNING, "found hf_***", fix=Fix("t", ("ghp_***",)))
    assert out.severity is Severity.WARNING


_json_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=40)
)
_json = st.recursive(
    _json_leaf,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=20,
)


def _shape(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shape(v) for v in value]
    return type(value).__name__


@given(_json)
def test_tree_redaction_keeps_json_shape(data: Any) -> None:
    out = PRIVATE.tree(data)
    assert _shape(out) == _shape(data)
    json.dumps(out)


@given(st.text(alphabet=st.sampled_from("ab:/@=_-hfgpkuSK~.\\ \n"), max_size=60))
def test_redaction_is_idempotent(text: str) -> None:
    once = PRIVATE.text(text)
    assert PRIVATE.text(once) == once


# --- planted secrets through every renderer ------------------------------------------------


def planted_report() -> tuple[Report, str, str]:
    """A report with secrets and identity planted everywhere; also the home and host used."""
    home = str(Path.home())
    host = socket.gethostname()
    facts = Facts(
        tfdoctor_version="0.1.0",
        collected_at="2024-05-02T10:11:12Z",
        driver=DriverFacts(
            source="nvml",
            driver_version="550.54.15",
            gpus=(GpuFacts(index=0, name="NVIDIA A100", uuid=UUID),),
        ),
        tensorflow=TensorFlowFacts(
            status="import-error",
            interpreter=f"{home}/venvs/tf/bin/python",
            stderr_tail=f"fatal: could not read from https://{GH_TOKEN}@github.com/org/repo\n"
            "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.sig",
            log_errors=(f"cannot open /home/carol/lib/libcudnn.so.8 on {host}",),
        ),
        environment={
            "HF_TOKEN": HF_TOKEN,
            "WANDB_API_KEY": WANDB_KEY,
            "LD_LIBRARY_PATH": f"/opt/cuda/lib64:https://alice:{URL_PASSWORD}@mirror.example.com/lib",
            "CUDA_VISIBLE_DEVICES": MIG_UUID,
        },
        errors=(
            ProbeError(
                "packages",
                "child-error",
                f"pip could not reach https://ci:{URL_PASSWORD}@pypi.example.com/simple "
                f"from {host}",
            ),
        ),
    )
    findings = (
        Finding(
            "env.hf-token",
            Severity.WARNING,
            f"HF_TOKEN={HF_TOKEN} is set in the environment",
            detail=f"Seen in {home}/.bashrc on {host}",
            fix=Fix("Log in instead:", (f"huggingface-cli login --token {HF_TOKEN}",)),
        ),
    )
    return Report(facts=facts, findings=findings), home, host


SECRETS = (HF_TOKEN, GH_TOKEN, URL_PASSWORD, WANDB_KEY, "eyJhbGciOiJIUzI1NiJ9")


@pytest.mark.parametrize(
    "render",
    [
        pytest.param(render_text, id="text"),
        pytest.param(lambda r: render_text(r, verbose=True), id="text-verbose"),
        pytest.param(lambda r: render_text(r, verbose=True, color=True, width=40), id="text-color"),
        pytest.param(lambda r: render_json(r, "0.1.0"), id="json"),
        pytest.param(lambda r: render_markdown(r, "0.1.0"), id="markdown"),
    ],
)
def test_no_secret_reaches_any_format(render: Any) -> None:
    report, _, _ = planted_report()
    out = render(report)
    for secret in SECRETS:
        assert secret not in out


def test_planted_secrets_were_there_to_find() -> None:
    report, _, _ = planted_report()
    raw = json.dumps(dataclasses.asdict(report.facts)) + repr(report.findings)
    for secret in SECRETS:
        assert secret in raw


def test_json_with_secrets_stays_valid_and_masks_env_values() -> None:
    report, _, _ = planted_report()
    data = json.loads(render_json(report, "0.1.0"))
    env = data["facts"]["environment"]
    assert env["HF_TOKEN"] == MASK
    assert env["WANDB_API_KEY"] == MASK
    assert env["LD_LIBRARY_PATH"] == "/opt/cuda/lib64:https://alice:***@mirror.example.com/lib"
    assert env["CUDA_VISIBLE_DEVICES"] == MIG_UUID  # identity stays in the JSON (not private)


def test_markdown_hides_home_hostname_and_uuids() -> None:
    report, home, host = planted_report()
    out = render_markdown(report, "0.1.0")
    assert UUID not in out
    assert MIG_UUID not in out
    assert "/home/carol" not in out
    if len(home) > 1:
        assert f"{home}/venvs" not in out
        assert "~/venvs/tf/bin/python" in out
    if len(host) >= 3:
        assert f"on {host}" not in out
        assert f"from {host}" not in out
        assert "from <hostname>" in out


def test_text_keeps_identity_but_not_secrets() -> None:
    report, home, _ = planted_report()
    out = render_text(report, verbose=True)
    assert UUID in out
    assert f"{home}/venvs/tf/bin/python" in out
    assert "HF_TOKEN=***" in out
