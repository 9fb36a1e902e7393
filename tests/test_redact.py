"""Redaction: secrets never reach any output; private mode also hides the machine's identity."""

from __future__ import annotations

import dataclasses
import json
import socket
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tfdoctor import redact
from tfdoctor.facts import DriverFacts, Facts, GpuFacts, ProbeError, TensorFlowFacts
from tfdoctor.findings import Finding, Fix, Report, Severity
from tfdoctor.redact import MASK, Redactor, is_secret_name
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
        pytest.param("run-x --db-password=abc123", "run-x --db-password=***", id="dashed-name"),
        pytest.param("git+https://u:pw12345@h/r", "git+https://u:***@h/r", id="scheme-with-plus"),
        pytest.param(
            "pip install -ihttps://u:s3cretpw@pypi.example.com/simple tf",
            "pip install -ihttps://u:***@pypi.example.com/simple tf",
            id="attached-short-option",
        ),
        pytest.param("1-api_key=abcdef123", "1-api_key=***", id="name-after-a-digit"),
        pytest.param("---password=abcdef123", "---password=***", id="three-dashes"),
        pytest.param(
            "-----BEGIN PRIVATE KEY-----\n-----BEGIN EC PRIVATE KEY-----\nMHc\n"
            "-----END EC PRIVATE KEY-----",
            "-----BEGIN PRIVATE KEY-----\n-----BEGIN EC PRIVATE KEY-----***"
            "-----END EC PRIVATE KEY-----",
            id="pem-after-an-unclosed-begin",
        ),
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
    private = Redactor.for_this_machine(private=True)
    assert private.text(f"{home}/project and {home}") == "~/project and ~"
    assert Redactor.for_this_machine(private=False).text(f"{home}/project") == f"{home}/project"


def test_private_mode_uses_this_machines_hostname() -> None:
    host = socket.gethostname()
    if len(host) < 3:
        pytest.skip(f"hostname {host!r} is too short to redact safely")
    private = Redactor.for_this_machine(private=True)
    assert private.text(f"on host {host}.") == "on host <hostname>."


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
    assert PUBLIC.tree(data) == {
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


def test_finding_and_check_ids_are_never_redacted() -> None:
    # A host called "gpu" must not rewrite the gpu.* ids that scripts match on.
    redactor = Redactor(private=True, hostname="gpu")
    finding = Finding(
        "gpu.visible", Severity.OK, "1 GPU visible on gpu", check="gpu.visible", detail="gpu"
    )
    out = redactor.tree(Report(facts=Facts("0.1.0", "2024-05-02T10:11:12Z"), findings=(finding,)))
    assert out.findings[0].id == "gpu.visible"
    assert out.findings[0].check == "gpu.visible"
    assert out.findings[0].summary == "1 GPU visible on <hostname>"
    assert out.findings[0].detail == "<hostname>"
    markdown = render_markdown(out, "0.1.0", redactor=redactor)
    assert "`gpu.visible`" in markdown
    assert "<hostname>.visible" not in markdown


# Real shapes of what redaction must catch, so the properties below exercise the rules.
_GITHUB_TOKEN = st.from_regex(r"gh[pousr]_[A-Za-z0-9]{36}", fullmatch=True)
_HF_TOKEN = st.from_regex(r"hf_[A-Za-z0-9]{34}", fullmatch=True)
_AWS_KEY_ID = st.from_regex(r"(AKIA|ASIA)[0-9A-Z]{16}", fullmatch=True)
_GPU_UUID = st.from_regex(
    r"(GPU|MIG)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", fullmatch=True
)
_URL_CREDENTIALS = st.tuples(
    st.from_regex(r"[a-z][a-z0-9._-]{0,8}", fullmatch=True),
    st.from_regex(r"[A-Za-z0-9!$%*_-]{6,16}", fullmatch=True),
)
_URL = st.builds(
    lambda cred, host, path: f"https://{cred[0]}:{cred[1]}@{host}.example.com/{path}",
    _URL_CREDENTIALS,
    st.from_regex(r"[a-z][a-z0-9-]{0,10}", fullmatch=True),
    st.from_regex(r"[a-z0-9/._-]{0,12}", fullmatch=True),
)
_HOME_PATH = st.from_regex(
    r"/home/[a-z][a-z0-9_-]{0,10}(/[A-Za-z0-9._-]{1,8}){0,3}", fullmatch=True
)
_SECRETS = st.one_of(_GITHUB_TOKEN, _HF_TOKEN, _AWS_KEY_ID, _GPU_UUID)
_SEPARATOR = st.sampled_from(
    [" ", ":", "\n", ", ", " (", ") ", "=", "'", " HF_TOKEN=", " Authorization: Bearer ", " on "]
)
_PLAIN = st.sampled_from(
    ["gpu-node-17.cluster.example", "gpu-node-17", "/var/lib/builder/x", "LD_LIBRARY_PATH=/opt"]
)


@st.composite
def _report_text(draw: st.DrawFn) -> tuple[str, list[str]]:
    """Text that mixes secrets, URLs, homes and this fixed machine's names, and the secrets."""
    secrets: list[str] = []
    parts: list[str] = []
    for _ in range(draw(st.integers(1, 6))):
        parts.append(draw(_SEPARATOR))
        kind = draw(st.sampled_from(["secret", "url", "home", "plain"]))
        if kind == "secret":
            secrets.append(draw(_SECRETS))
            parts.append(secrets[-1])
        elif kind == "url":
            url = draw(_URL)
            secrets.append(url.split("@", 1)[0])  # scheme, user and password
            parts.append(url)
        else:
            parts.append(draw(_HOME_PATH if kind == "home" else _PLAIN))
    parts.append(draw(_SEPARATOR))
    return "".join(parts), secrets


@settings(max_examples=200, deadline=None)
@given(_report_text())
def test_redaction_is_idempotent(case: tuple[str, list[str]]) -> None:
    text, _ = case
    once = PRIVATE.text(text)
    assert PRIVATE.text(once) == once


def surviving(text: str, secrets: Sequence[str], redact_text: Callable[[str], str]) -> list[str]:
    """The secrets still in ``text`` once redacted."""
    out = redact_text(text)
    return [secret for secret in secrets if secret in out]


@settings(max_examples=200, deadline=None)
@given(_report_text())
def test_generated_secrets_never_survive(case: tuple[str, list[str]]) -> None:
    text, secrets = case
    assert surviving(text, secrets, PRIVATE.text) == []


def test_a_redaction_that_misses_a_kind_of_secret_is_caught() -> None:
    url = f"https://ci:{URL_PASSWORD}@pypi.example.com/simple"
    text = f"HF_TOKEN={HF_TOKEN} from {url}"
    secrets = [HF_TOKEN, url.split("@", 1)[0]]
    assert surviving(text, secrets, PRIVATE.text) == []
    # Planted: a redaction that knows tokens but not passwords in URLs.
    assert surviving(text, secrets, lambda t: t.replace(HF_TOKEN, MASK)) == secrets[1:]


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


@pytest.mark.parametrize("index", range(len(redact._ALWAYS)))
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_the_one_pass_test_finds_whatever_a_rule_finds(index: int, data: Any) -> None:
    # The rules run only where the combined search matches: it must miss nothing a rule
    # alone would match, whatever surrounds the match.
    pattern = redact._ALWAYS[index][0]
    text = data.draw(st.from_regex(pattern))
    assert pattern.search(text)
    assert redact._ANY_ALWAYS.search(text), (pattern.pattern, text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("plain\ttext\n", "plain\ttext\n", id="tab-and-newline-kept"),
        pytest.param("a\r\nb", "a\nb", id="windows-line-end"),
        pytest.param("50%\rdone", "50%\\x0ddone", id="lone-carriage-return"),
        pytest.param("\x1b]0;title\x07", "\\x1b]0;title\\x07", id="osc-title"),
        pytest.param("a\x08\x08b\x00", "a\\x08\\x08b\\x00", id="backspace-nul"),
        pytest.param("\x7f\x9b2J\u00e9", "\\x7f\\x9b2J\u00e9", id="del-c1-csi-latin"),
        pytest.param("/usr/bin/py\udcffthon", "/usr/bin/py\\udcffthon", id="lone-surrogate"),
    ],
)
def test_control_characters_are_made_visible(text: str, expected: str) -> None:
    assert redact.visible(text) == expected
    assert PUBLIC.text(text) == expected
