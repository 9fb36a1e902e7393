"""tfdoctor env: which variables, golden output per format, and real shells reading it back.

Set ``TFDOCTOR_UPDATE_GOLDEN=1`` to rewrite the golden files after an intended change, then
review the diff.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

from tests import factories as f
from tests.commandline import tfdoctor
from tfdoctor.env.settings import EnvSetting, environment_settings
from tfdoctor.facts import Facts, LibraryCandidate, PackageFacts, to_json
from tfdoctor.render.envfile import DOTENV_QUOTE_NOTE, FORMATS, EnvFormatError, render_env

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).parent / "data" / "env"

USER_SITE = "/home/ana/.local/lib/python3.11/site-packages"
TOOLKIT = "/opt/cuda-12.3"


def machine() -> Facts:
    """A GPU machine where XLA and the loader both miss something.

    libdevice comes from a toolkit under /opt that CUDA_HOME names (XLA looks only in
    /usr/local/cuda and next to TensorFlow), and the cuDNN wheel went into the user site
    while TensorFlow sits in the venv, beyond its RUNPATH.
    """
    libs = f.cuda_libs(
        f.lib("cudart", "libcudart.so.12", f.pip_cand("cuda_runtime/lib/libcudart.so.12", "12.2")),
        f.lib("cudnn", "libcudnn.so.8"),
        f.lib(
            "cuda",
            "libcuda.so.1",
            LibraryCandidate(
                "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "ldconfig", "12.4", "call", True
            ),
        ),
    )
    libs = dataclasses.replace(
        libs,
        ptxas=f"{TOOLKIT}/bin/ptxas",
        ptxas_version="12.3.107",
        libdevice=f"{TOOLKIT}/nvvm/libdevice/libdevice.10.bc",
    )
    cudnn_wheel = PackageFacts("nvidia-cudnn-cu12", "8.9.4.25", USER_SITE, (), False, ("nvidia",))
    return f.facts(
        packages=f.packages(cudnn_wheel),
        cuda_libs=libs,
        python=f.python(site_packages=(f.SITE, USER_SITE)),
        environment={
            "PATH": "/usr/bin:/bin",
            "CUDA_HOME": TOOLKIT,
            "LD_LIBRARY_PATH": "/usr/local/lib",
            "XLA_FLAGS": "--xla_gpu_autotune_level=2",
        },
    )


def with_env(**variables: str) -> Facts:
    """The fixed machine with these environment variables changed."""
    facts = machine()
    return dataclasses.replace(facts, environment={**(facts.environment or {}), **variables})


def settings() -> tuple[EnvSetting, ...]:
    return environment_settings(machine(), async_allocator=True, log_level=2)


# --- which variables ------------------------------------------------------------------------


def test_the_fixed_machine_gets_every_variable() -> None:
    assert [(s.name, s.value) for s in settings()] == [
        ("TF_FORCE_GPU_ALLOW_GROWTH", "true"),
        ("TF_GPU_ALLOCATOR", "cuda_malloc_async"),
        ("TF_CPP_MIN_LOG_LEVEL", "2"),
        ("XLA_FLAGS", f"--xla_gpu_autotune_level=2 --xla_gpu_cuda_data_dir={TOOLKIT}"),
        ("LD_LIBRARY_PATH", f"{USER_SITE}/nvidia/cudnn/lib:/usr/local/lib"),
    ]


def test_a_healthy_machine_gets_only_memory_growth() -> None:
    assert [s.name for s in environment_settings(f.facts())] == ["TF_FORCE_GPU_ALLOW_GROWTH"]


@pytest.mark.parametrize(
    "libdevice",
    [
        pytest.param("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc", id="usr-local-cuda"),
        pytest.param(
            f"{f.SITE}/nvidia/cuda_nvcc/nvvm/libdevice/libdevice.10.bc", id="wheel-beside-tf"
        ),
    ],
)
def test_no_xla_flag_where_xla_looks_by_itself(libdevice: str) -> None:
    facts = f.facts(cuda_libs=dataclasses.replace(f.cuda_libs(), libdevice=libdevice))
    assert "XLA_FLAGS" not in [s.name for s in environment_settings(facts)]


def test_xla_flag_already_pointing_there_is_kept() -> None:
    facts = with_env(XLA_FLAGS=f"--xla_gpu_cuda_data_dir={TOOLKIT}")
    assert "XLA_FLAGS" not in [s.name for s in environment_settings(facts)]


def test_a_wrong_xla_data_dir_is_replaced() -> None:
    facts = with_env(XLA_FLAGS="--xla_gpu_cuda_data_dir=/nowhere --xla_dump_to=/tmp/x")
    xla = {s.name: s.value for s in environment_settings(facts)}["XLA_FLAGS"]
    assert xla == f"--xla_dump_to=/tmp/x --xla_gpu_cuda_data_dir={TOOLKIT}"


def test_a_wheel_beside_tensorflow_is_not_added_to_the_loader_path() -> None:
    # Its library is on TensorFlow's RUNPATH already; if it is still missing, it does not
    # load, and LD_LIBRARY_PATH would not help.
    wheel = PackageFacts("nvidia-cudnn-cu12", "8.9.4.25", f.SITE, (), False, ("nvidia",))
    facts = f.facts(
        packages=f.packages(wheel),
        cuda_libs=f.cuda_libs(f.lib("cudnn", "libcudnn.so.8")),
    )
    assert "LD_LIBRARY_PATH" not in [s.name for s in environment_settings(facts)]


def test_cuda_13_wheels_in_another_site_add_their_shared_directory() -> None:
    # CUDA 13's toolkit wheels (unsuffixed names) put their libraries in nvidia/cu13/lib; a
    # build of CUDA 13 loads them (one of CUDA 12 would not: test_checks_other_release_wheels).
    wheel = PackageFacts("nvidia-cublas", "13.0.0.19", USER_SITE, (), False, ("nvidia",))
    facts = f.facts(
        packages=f.packages(wheel),
        cuda_libs=f.cuda_libs(
            f.lib("cublas", "libcublas.so.13"), f.lib("cublasLt", "libcublasLt.so.13")
        ),
        tensorflow=f.tensorflow(
            cuda_version="13.0",
            build_info={"cuda_version": "13.0", "cudnn_version": "9", "is_cuda_build": "True"},
        ),
    )
    ld_path = {s.name: s for s in environment_settings(facts)}["LD_LIBRARY_PATH"]
    assert ld_path.value == f"{USER_SITE}/nvidia/cu13/lib"
    assert "the cublas, cublasLt wheels" in ld_path.reason


def test_cuda_13_wheels_go_on_no_path_for_a_cuda_12_build() -> None:
    # The same wheels beside a build of CUDA 12: they hold none of its sonames.
    wheel = PackageFacts("nvidia-cublas", "13.0.0.19", USER_SITE, (), False, ("nvidia",))
    facts = f.facts(
        packages=f.packages(wheel), cuda_libs=f.cuda_libs(f.lib("cublas", "libcublas.so.12"))
    )
    settings = {s.name: s.value for s in environment_settings(facts)}
    assert "/nvidia/cu13/" not in settings.get("LD_LIBRARY_PATH", "")


def test_log_level_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError, match="0-3"):
        environment_settings(f.facts(), log_level=4)


# --- golden output --------------------------------------------------------------------------

_FILES = {
    "sh": "env.sh",
    "fish": "env.fish",
    "powershell": "env.ps1",
    "dockerfile": "env.Dockerfile",
    "dotenv": "env.dotenv",
}


@pytest.mark.parametrize("fmt", FORMATS)
def test_output_matches_golden(fmt: str) -> None:
    actual = render_env(settings(), fmt, "0.1.0")
    path = GOLDEN / _FILES[fmt]
    if os.environ.get("TFDOCTOR_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
    assert actual == path.read_text(encoding="utf-8")


def golden_gaps(formats: Iterable[str], files: Mapping[str, str], folder: Path) -> list[str]:
    """Formats without a golden file that exists, and golden files of no format."""
    gaps = [fmt for fmt in formats if fmt not in files or not (folder / files[fmt]).is_file()]
    return gaps + sorted(set(files) - set(formats))


def test_every_format_has_a_golden_file() -> None:
    assert golden_gaps(FORMATS, _FILES, GOLDEN) == []
    # Planted: a format without a file, a file whose name is wrong, a file of no format.
    assert golden_gaps((*FORMATS, "xml"), _FILES, GOLDEN) == ["xml"]
    assert golden_gaps(FORMATS, {**_FILES, "sh": "env.bash"}, GOLDEN) == ["sh"]
    assert golden_gaps(FORMATS, {**_FILES, "csh": "env.csh"}, GOLDEN) == ["csh"]


# --- real shells read the values back exactly ----------------------------------------------

# Values a path or flag could hold that each quoting must survive.
AWKWARD = (
    EnvSetting("TFD_PLAIN", "/usr/local/cuda", "plain"),
    EnvSetting("TFD_SPACES", "--a=1 --b='two words'", "spaces and quotes"),
    EnvSetting("TFD_DOLLAR", "$HOME/`id`/$(id)\\n", "no expansion"),
    EnvSetting("TFD_QUOTES", 'it\'s "quoted" \u2019curly\u2019', "quotes of every kind"),
    EnvSetting("TFD_HASH", "a # not a comment", "hash"),
)


def _run(argv: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=60, check=True)


_PRINT_SH = 'for n in TFD_PLAIN TFD_SPACES TFD_DOLLAR TFD_QUOTES TFD_HASH; do printenv "$n"; done'


@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_posix_shells_read_back_every_value(shell: str) -> None:
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed")
    code = render_env(AWKWARD, "sh", "0.1.0")
    out = _run([shell, "-c", f'eval "$1"; {_PRINT_SH}', shell, code])
    assert out.stdout.splitlines() == [s.value for s in AWKWARD]


def test_fish_reads_back_every_value() -> None:
    if shutil.which("fish") is None:
        pytest.skip("fish is not installed")
    code = render_env(AWKWARD, "fish", "0.1.0")
    script = code + "".join(f"printenv {s.name}\n" for s in AWKWARD)
    out = _run(["fish", "--no-config", "-c", script])
    assert out.stdout.splitlines() == [s.value for s in AWKWARD]


def test_powershell_reads_back_every_value() -> None:
    pwsh = shutil.which("pwsh") or shutil.which("powershell")
    if pwsh is None:
        pytest.skip("PowerShell is not installed")
    code = render_env(AWKWARD, "powershell", "0.1.0")
    script = code + "".join(f"Write-Output $env:{s.name}\n" for s in AWKWARD)
    out = _run([pwsh, "-NoProfile", "-NonInteractive", "-Command", script])
    assert out.stdout.splitlines() == [s.value for s in AWKWARD]


def test_dotenv_values_parse_back_with_python_dotenv() -> None:
    dotenv = pytest.importorskip("dotenv")
    text = render_env(AWKWARD[:2] + AWKWARD[4:], "dotenv", "0.1.0")
    values = dotenv.dotenv_values(stream=io.StringIO(text), interpolate=False)
    assert values == {s.name: s.value for s in AWKWARD[:2] + AWKWARD[4:]}


# --- dotenv: bare for `docker run --env-file`, quoted only where a reader needs it ----------


def read_env_file(text: str) -> dict[str, str]:
    """What `docker run --env-file` sets: the rest of each NAME= line, quotes and all
    (docker/cli opts/envfile.go; https://github.com/docker/cli/issues/3630)."""
    out = {}
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            out[name] = value
    return out


def read_dotenv(text: str) -> dict[str, str]:
    """What python-dotenv (interpolation off) and docker compose set, by their documented rules:
    single quotes literal but for \\\\ and \\'; double quotes decode backslash escapes;
    unquoted values end at " #" and lose surrounding blanks
    (https://github.com/theskumar/python-dotenv#file-format,
    https://docs.docker.com/compose/how-tos/environment-variables/variable-interpolation/)."""
    escapes = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'"}
    out = {}
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, _, raw = line.partition("=")
        if raw[:1] in ("'", '"'):
            quote, chars, i = raw[0], [], 1
            while raw[i] != quote:
                if raw[i] == "\\" and raw[i + 1] in (escapes if quote == '"' else "\\'"):
                    chars.append(escapes[raw[i + 1]])
                    i += 2
                    continue
                chars.append(raw[i])
                i += 1
            assert raw[i + 1 :].strip() == "", line
            out[name] = "".join(chars)
        else:
            out[name] = raw.split(" #", 1)[0].strip()
    return out


DOTENV_VALUES = (
    EnvSetting("TFD_FLAGS", "--xla_gpu_autotune_level=2 --xla_gpu_cuda_data_dir=/opt/cuda", "f"),
    EnvSetting("TFD_PLAIN", "/usr/local/cuda", "plain"),
    EnvSetting("TFD_HASH", "a #b", "hash"),
    EnvSetting("TFD_DOLLAR", "$HOME/x", "dollar"),
    EnvSetting("TFD_BLANKS", " padded ", "blanks"),
    EnvSetting("TFD_QUOTE", "it's", "quote"),
    EnvSetting("TFD_NEWLINE", "one\ntwo", "newline"),
    EnvSetting("TFD_BACKSLASH", "C:\\\\share\\x", "backslashes"),
)


def test_dotenv_leaves_values_with_spaces_bare_for_docker_env_file() -> None:
    text = render_env(DOTENV_VALUES[:2], "dotenv", "0.1.0")
    assert "TFD_FLAGS=--xla_gpu_autotune_level=2 --xla_gpu_cuda_data_dir=/opt/cuda" in (
        text.splitlines()
    )
    assert read_env_file(text) == {s.name: s.value for s in DOTENV_VALUES[:2]}
    assert DOTENV_QUOTE_NOTE not in text


def test_dotenv_quotes_only_what_a_reader_would_change_and_says_so() -> None:
    text = render_env(DOTENV_VALUES, "dotenv", "0.1.0")
    assert read_dotenv(text) == {s.name: s.value for s in DOTENV_VALUES}
    docker = read_env_file(text)
    quoted = [s.name for s in DOTENV_VALUES if docker.get(s.name) != s.value]
    assert quoted == [s.name for s in DOTENV_VALUES[2:]]
    lines = text.splitlines()
    for name in quoted:
        (index,) = [i for i, line in enumerate(lines) if line.startswith(name + "=")]
        assert lines[index - 1] == "# " + DOTENV_QUOTE_NOTE


def test_dotenv_refuses_a_value_with_no_portable_form() -> None:
    with pytest.raises(EnvFormatError, match="no portable form"):
        render_env((EnvSetting("TFD_X", "it's $HOME", "both"),), "dotenv", "0.1.0")


def test_sh_reads_back_a_newline_and_other_awkward_values() -> None:
    values = (*AWKWARD, EnvSetting("TFD_NEWLINE", "one\ntwo\n", "newline"))
    code = render_env(values, "sh", "0.1.0")
    names = " ".join(s.name for s in values)
    out = _run(
        [
            "sh",
            "-c",
            f'eval "$1"; for n in {names}; do printenv "$n"; printf "\\0"; done',
            "sh",
            code,
        ]
    )
    assert out.stdout.split("\0")[:-1] == [s.value + "\n" for s in values]


def test_dockerfile_refuses_a_line_break() -> None:
    with pytest.raises(EnvFormatError, match="cannot hold a line break"):
        render_env((EnvSetting("TFD_NEWLINE", "one\ntwo", "newline"),), "dockerfile", "0.1.0")


def test_the_command_turns_an_unwritable_value_into_exit_3(tmp_path: Path) -> None:
    facts = tmp_path / "facts.json"
    odd = with_env(LD_LIBRARY_PATH="/usr/local/lib\n/opt/lib")
    facts.write_text(json.dumps(to_json(odd)), encoding="utf-8")
    out = tfdoctor("env", "--facts", str(facts), "--dockerfile")
    assert out.returncode == 3, out.stderr
    assert out.stdout == ""
    assert "line break" in out.stderr and len(out.stderr.strip().splitlines()) == 1
    assert tfdoctor("env", "--facts", str(facts)).returncode == 0


# --- the command, end to end ----------------------------------------------------------------


def test_bash_evals_the_command_and_sees_the_variables(tmp_path: Path) -> None:
    facts = tmp_path / "facts.json"
    facts.write_text(json.dumps(to_json(machine())), encoding="utf-8")
    command = f"{sys.executable} -m tfdoctor env --facts {facts} --log-level 1"
    out = _run(
        [
            "bash",
            "-c",
            f'eval "$({command})"; printf "%s|%s|%s|%s" "$TF_FORCE_GPU_ALLOW_GROWTH" '
            '"$TF_CPP_MIN_LOG_LEVEL" "$XLA_FLAGS" "$LD_LIBRARY_PATH"',
        ],
        cwd=ROOT,
    )
    assert out.stdout == (
        f"true|1|--xla_gpu_autotune_level=2 --xla_gpu_cuda_data_dir={TOOLKIT}|"
        f"{USER_SITE}/nvidia/cudnn/lib:/usr/local/lib"
    )


@pytest.mark.parametrize("shell", ["bash", "zsh", "dash", "sh"])
def test_each_posix_shell_by_name_reads_the_sh_syntax(shell: str, tmp_path: Path) -> None:
    facts = tmp_path / "facts.json"
    facts.write_text(json.dumps(to_json(machine())), encoding="utf-8")
    out = tfdoctor("env", "--facts", str(facts), "--shell", shell)
    assert out.returncode == 0, out.stderr
    assert out.stdout == tfdoctor("env", "--facts", str(facts)).stdout
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed; its syntax is sh's, checked above")
    read = _run(
        [shell, "-c", 'eval "$1"; printf %s "$TF_FORCE_GPU_ALLOW_GROWTH"', shell, out.stdout]
    )
    assert read.stdout == "true"


def test_the_command_probes_this_machine_without_tensorflow() -> None:
    out = tfdoctor("env", "--dotenv")
    assert out.returncode == 0, out.stderr
    assert "TF_FORCE_GPU_ALLOW_GROWTH=true" in out.stdout.splitlines()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(("--dockerfile", "--dotenv"), "different outputs", id="two-formats"),
        pytest.param(("--shell", "fish", "--dotenv"), "different outputs", id="shell-and-file"),
        pytest.param(("--log-level", "9"), "0, 1, 2 or 3", id="bad-log-level"),
        pytest.param(("--shell", "csh"), "csh", id="unknown-shell"),
        pytest.param(("--python", "/nonexistent/python"), "no such interpreter", id="no-python"),
    ],
)
def test_bad_input_exits_3_with_one_line(args: tuple[str, ...], message: str) -> None:
    out = tfdoctor("env", *args)
    assert out.returncode == 3
    assert out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1
    assert message in out.stderr
