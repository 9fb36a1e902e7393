"""`tfdoctor pin --resolve`: a target pinned exactly by pip's resolver, against a local index.

No network: the index is served on 127.0.0.1 by a thread of the test, over wheels built here
(tests/pin_index.py). pip runs for real, in the child tfdoctor starts.
"""

from __future__ import annotations

import dataclasses
import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Optional

import pytest
from packaging.requirements import Requirement

from tests import factories as f
from tests.commandline import tfdoctor, write_facts
from tests.factories import FIXTURE_MATRIX, FIXTURE_MATRIX_PATH
from tests.pin_index import Index, serve, sha256, wheel
from tests.test_pin import gpu_facts, requirement_lines
from tfdoctor.compat import Target, make_target, newest_fit
from tfdoctor.facts import normalize_name
from tfdoctor.inputs import DoctorError
from tfdoctor.matrix import MATRIX_ENV, Matrix
from tfdoctor.pin import PinEntry, PinError, Pinset, target_pinset
from tfdoctor.pin.hashes import add_hashes, parse_release_hashes, parse_simple_html
from tfdoctor.pin.resolve import (
    GLIBC,
    ResolveError,
    WheelTarget,
    display_url,
    platform_tags,
    resolve_target,
    resolved_pinset,
    run_resolver,
    target_markers,
    wheel_target,
)
from tfdoctor.pin.service import PinOptions, make_pins
from tfdoctor.pipreport import ReportError, Resolved, parse_report
from tfdoctor.probes._run import CommandResult, run_command

ROOT = Path(__file__).resolve().parent.parent

LINUX_312 = "cp312-cp312-manylinux_2_27_x86_64"
MANYLINUX_2014 = "manylinux_2_17_x86_64.manylinux2014_x86_64"
#: TensorFlow 2.21.0's requirements, cut down: a Python marker, a Windows one, the extra.
TF_REQUIRES = (
    "numpy>=1.26.0",
    'typing_extensions>=3.6.6; python_version < "3.12"',
    'pywin32-ctypes>=0.2; sys_platform == "win32"',
    'nvidia-cudnn-cu12<10.0,>=9.3.0.75; extra == "and-cuda"',
    'tensorflow-io-gcs-filesystem>=0.23.1; extra == "gcs-filesystem"',
)


def tf_wheel(tag: str) -> tuple[str, tuple[str, bytes]]:
    return (
        "tensorflow",
        wheel(
            "tensorflow",
            "2.21.0",
            tag,
            TF_REQUIRES,
            extras=("and-cuda", "gcs-filesystem"),
            requires_python=">=3.10",
        ),
    )


def served_wheels() -> list[tuple[str, tuple[str, bytes]]]:
    return [
        tf_wheel(LINUX_312),
        tf_wheel("cp311-cp311-manylinux_2_27_x86_64"),
        tf_wheel("cp311-cp311-win_amd64"),
        ("numpy", wheel("numpy", "1.26.4", f"cp312-cp312-{MANYLINUX_2014}")),
        ("numpy", wheel("numpy", "2.1.0", f"cp312-cp312-{MANYLINUX_2014}")),
        ("numpy", wheel("numpy", "2.1.0", f"cp311-cp311-{MANYLINUX_2014}")),
        ("numpy", wheel("numpy", "2.1.0", "cp311-cp311-win_amd64")),
        # Newer, but for a glibc past the target's, and for Python 3.13 only: pip skips both.
        ("numpy", wheel("numpy", "2.2.0", "cp312-cp312-manylinux_2_34_x86_64")),
        ("numpy", wheel("numpy", "2.3.0", "cp313-cp313-manylinux_2_28_x86_64")),
        (
            "nvidia-cudnn-cu12",
            wheel("nvidia-cudnn-cu12", "9.3.0.75", "py3-none-manylinux2014_x86_64"),
        ),
        (
            "nvidia-cudnn-cu12",
            wheel("nvidia-cudnn-cu12", "10.0.0", "py3-none-manylinux2014_x86_64"),
        ),
        ("typing-extensions", wheel("typing_extensions", "4.12.2", "py3-none-any")),
        ("pywin32-ctypes", wheel("pywin32-ctypes", "0.2.3", "py3-none-any")),
        # A companion: each release declares the TensorFlow it is built for (its real range).
        *(
            (
                "tensorflow-text",
                wheel(
                    "tensorflow-text", f"2.{m}.0", LINUX_312, (f"tensorflow<2.{m + 1},>=2.{m}.0",)
                ),
            )
            for m in (20, 21)
        ),
    ]


@pytest.fixture(scope="module")
def index() -> Iterator[tuple[Index, str]]:
    served = Index(served_wheels())
    with serve(served) as url:
        yield served, url


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    # The frozen matrix, whose newest line is the one the served index holds.
    return FIXTURE_MATRIX


def child_env(tmp: Path) -> dict[str, str]:
    # pip's cache goes to the test's directory; the machine's pip variables stay, to show
    # that --resolve ignores them (and its configuration files).
    return dict(os.environ, XDG_CACHE_HOME=str(tmp / "cache"), NO_COLOR="1")


def pin(*args: str, env: Mapping[str, str]) -> subprocess.CompletedProcess[str]:
    """``tfdoctor pin ARGS`` on the frozen matrix, in exactly the environment ``env``."""
    return tfdoctor(
        "pin", *args, environ={MATRIX_ENV: str(FIXTURE_MATRIX_PATH), **env}, timeout=300
    )


def pins(text: str) -> dict[str, Requirement]:
    return {normalize_name(r.name): r for r in map(Requirement, requirement_lines(text))}


GPU_312 = (
    "--python-version",
    "3.12",
    "--platform",
    "linux",
    "--driver",
    "570.86.15",
    "--gpu",
    "8.6",
)


# --- end to end -------------------------------------------------------------------------------


def test_resolve_writes_the_exact_pins_pip_picks(index: tuple[Index, str], tmp_path: Path) -> None:
    _, url = index
    env = child_env(tmp_path)
    out = pin("--resolve", "--index-url", url, *GPU_312, env=env)
    assert out.returncode == 0, out.stderr
    found = pins(out.stdout)
    assert {k: str(r) for k, r in found.items()} == {
        "numpy": "numpy==2.1.0",
        "nvidia-cudnn-cu12": 'nvidia-cudnn-cu12==9.3.0.75; sys_platform == "linux"',
        "tensorflow": "tensorflow[and-cuda]==2.21.0",
    }
    assert "--hash" not in out.stdout
    assert "numpy==2.1.0\n    # via tensorflow\n" in out.stdout
    assert "    # via tensorflow[and-cuda]\n" in out.stdout
    assert f"#    tfdoctor pin --resolve --index-url {url} --python-version 3.12" in out.stdout
    assert "at the versions pip " in out.stdout and "manylinux_2_28_x86_64 and older" in out.stdout
    assert "ranges" not in out.stdout
    again = pin("--resolve", "--index-url", url, *GPU_312, env=env)
    assert again.returncode == 0, again.stderr
    assert again.stdout == out.stdout


def test_resolve_keeps_an_installed_companion_in_step_with_the_target(
    index: tuple[Index, str], tmp_path: Path
) -> None:
    # tensorflow-text 2.20 is installed; the target's TensorFlow is 2.21: pip is asked for
    # tensorflow-text's release for 2.21 beside it and pins that.
    _, url = index
    facts = write_facts(tmp_path, gpu_facts("9.3.0.75", f.pkg("tensorflow-text", "2.20.0")))
    out = pin(
        "--resolve", "--index-url", url, "--facts", str(facts), *GPU_312, env=child_env(tmp_path)
    )
    assert out.returncode == 0, out.stderr
    found = pins(out.stdout)
    assert str(found["tensorflow-text"]) == "tensorflow-text==2.21.0"
    assert str(found["tensorflow"]) == "tensorflow[and-cuda]==2.21.0"


def test_resolve_with_hashes_lists_every_file_of_each_pinned_release(
    index: tuple[Index, str], tmp_path: Path
) -> None:
    served, url = index
    out = pin("--resolve", "--hashes", "--index-url", url, *GPU_312, env=child_env(tmp_path))
    assert out.returncode == 0, out.stderr
    logical = out.stdout.replace("\\\n", " ")
    for name, version in (("tensorflow", "2.21.0"), ("numpy", "2.1.0")):
        line = next(x for x in logical.splitlines() if x.startswith(f"{name}") and "==" in x)
        digests = {h.split("sha256:")[1] for h in line.split() if h.startswith("--hash=")}
        expected = {
            sha256(data)
            for filename, data in served.projects[name].items()
            if f"-{version}-" in filename
        }
        assert digests == expected and len(expected) >= 2, name
    # The file installs with pip's hash-checking mode: every requirement has hashes.
    for line in logical.splitlines():
        if line and not line.startswith(("#", " ")):
            assert "--hash=sha256:" in line, line


@pytest.mark.parametrize(
    ("args", "present", "absent"),
    [
        pytest.param(
            ("--python-version", "3.12", "--platform", "linux"),
            {"numpy"},
            {"typing-extensions", "pywin32-ctypes", "nvidia-cudnn-cu12"},
            id="linux-py312",
        ),
        pytest.param(
            ("--python-version", "3.11", "--platform", "windows"),
            {"numpy", "typing-extensions", "pywin32-ctypes"},
            {"nvidia-cudnn-cu12"},
            id="windows-py311",
        ),
    ],
)
def test_markers_are_the_targets_not_this_interpreters(
    index: tuple[Index, str],
    tmp_path: Path,
    args: tuple[str, ...],
    present: set[str],
    absent: set[str],
) -> None:
    _, url = index
    out = pin("--resolve", "--index-url", url, *args, env=child_env(tmp_path))
    assert out.returncode == 0, out.stderr
    found = pins(out.stdout)
    assert present <= set(found) and not absent & set(found)
    assert found["tensorflow"].specifier == Requirement("x==2.21.0").specifier


def test_no_wheel_for_the_target_exits_2_with_one_line(
    index: tuple[Index, str], tmp_path: Path
) -> None:
    _, url = index  # serves no Python 3.13 TensorFlow
    out = pin(
        "--resolve", "--index-url", url, "--python-version", "3.13", "--platform", "linux",
        env=child_env(tmp_path),
    )  # fmt: skip
    assert out.returncode == 2, out.stderr
    assert out.stdout == ""
    assert out.stderr.count("\n") == 1
    assert "pip finds nothing on" in out.stderr and "tensorflow==2.21.0" in out.stderr
    assert "Traceback" not in out.stderr


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_unreachable_index_exits_3_with_one_line(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}/simple"
    out = pin(
        "--resolve", "--index-url", url, "--python-version", "3.12", "--platform", "linux",
        env=child_env(tmp_path),
    )  # fmt: skip
    assert out.returncode == 3
    assert out.stdout == ""
    assert out.stderr.count("\n") == 1
    assert f"--resolve: cannot reach the package index {url}" in out.stderr
    assert "without --resolve the file pins ranges" in out.stderr


def test_a_token_in_the_index_url_stays_out_of_the_file(
    index: tuple[Index, str], tmp_path: Path
) -> None:
    _, url = index
    with_token = url.replace("http://", "http://ci:s3cret@")
    out = pin(
        "--resolve", "--index-url", with_token, "--python-version", "3.12", "--platform", "linux",
        env=child_env(tmp_path),
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "s3cret" not in out.stdout
    assert url.replace("http://", "http://ci:****@") in out.stdout


def test_without_resolve_the_header_says_ranges_and_how_to_get_pins(tmp_path: Path) -> None:
    out = pin("--python-version", "3.12", "--platform", "linux", env=child_env(tmp_path))
    assert out.returncode == 0, out.stderr
    header = " ".join(line.lstrip("# ") for line in out.stdout.splitlines() if line[:1] == "#")
    assert "ranges, not exact pins" in header
    assert "offline" in header and "add --resolve" in header
    assert "keras>=3.12.0" in out.stdout.splitlines()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(("--resolve",), "--resolve pins a target", id="resolve-without-target"),
        pytest.param(
            ("--python-version", "3.12", "--index-url", "https://example.invalid/simple"),
            "--index-url names the index of --resolve or --hashes",
            id="index-url-alone",
        ),
        pytest.param(
            ("--resolve", "--python-version", "3.12", "--index-url", "example.org/simple"),
            "expected an https://, http:// or file:// URL",
            id="index-url-scheme",
        ),
    ],
)
def test_bad_resolve_options_exit_3_with_one_line(
    args: tuple[str, ...], message: str, tmp_path: Path
) -> None:
    out = pin(*args, env=child_env(tmp_path))
    assert out.returncode == 3, out.stderr
    assert message in out.stderr and out.stderr.count("\n") == 1


# --- the target pip is told of ----------------------------------------------------------------


def test_linux_tags_run_from_the_glibc_ceiling_down_with_the_legacy_aliases() -> None:
    tags = platform_tags("linux-x86_64", "2.28")
    assert tags[0] == "manylinux_2_28_x86_64" and tags[-1] == "manylinux1_x86_64"
    assert tags.index("manylinux_2_17_x86_64") + 1 == tags.index("manylinux2014_x86_64")
    assert "manylinux2010_x86_64" in tags and "manylinux_2_5_x86_64" in tags
    arm = platform_tags("linux-aarch64", "2.28")
    assert arm[-2:] == ("manylinux_2_17_aarch64", "manylinux2014_aarch64")
    assert not any("manylinux1" in t or "2010" in t for t in arm)


@pytest.mark.parametrize(
    ("platform", "expected"),
    [
        ("windows-x86_64", ("win_amd64",)),
        ("macos-arm64", ("macosx_14_0_arm64",)),
        ("macos-x86_64", ("macosx_14_0_x86_64",)),
    ],
)
def test_windows_and_macos_tags(platform: str, expected: tuple[str, ...]) -> None:
    assert platform_tags(platform) == expected


def test_the_glibc_ceiling_is_never_below_the_tensorflow_wheels_floor(matrix: Matrix) -> None:
    target = make_target(matrix, python="3.12", platform="linux")
    wheels = wheel_target(matrix, target_pinset(matrix, target), target)
    assert wheels.tags[0] == f"manylinux_2_{GLIBC.split('.')[1]}_x86_64"
    pinned = newest_fit(matrix, target)
    assert pinned is not None
    line = pinned.line
    assert line.glibc_min is not None
    raised = dataclasses.replace(
        matrix,
        lines=tuple(
            dataclasses.replace(e, glibc_min="2.34") if e is line else e for e in matrix.lines
        ),
    )
    wheels = wheel_target(raised, target_pinset(raised, target), target)
    assert wheels.tags[0] == "manylinux_2_34_x86_64"


def test_target_markers() -> None:
    win = target_markers("3.11", "windows-x86_64")
    assert win["sys_platform"] == "win32" and win["platform_machine"] == "AMD64"
    assert win["python_version"] == "3.11" and win["os_name"] == "nt"
    mac = target_markers("3.12", "macos-arm64")
    assert (mac["sys_platform"], mac["platform_machine"]) == ("darwin", "arm64")
    assert "extra" not in mac


def test_resolve_needs_a_target_python(matrix: Matrix) -> None:
    target = Target(platform="linux-x86_64")
    with pytest.raises(ResolveError, match=r"--python-version X\.Y"):
        wheel_target(matrix, target_pinset(matrix, target), target)


# --- pip's report and pip's failures, without pip ---------------------------------------------

REPORT: dict[str, Any] = {
    "version": "1",
    "pip_version": "99.0",
    "install": [
        {
            "metadata": {
                "name": "TensorFlow",
                "version": "2.21.0",
                "requires_dist": ["numpy>=1.26", 'six; python_version < "3"'],
            },
            "download_info": {"url": "x", "archive_info": {"hashes": {"sha256": "a" * 64}}},
            "requested": True,
        },
        {
            # pip 22.2's form: "hash" only.
            "metadata": {"name": "numpy", "version": "2.1.0"},
            "download_info": {"url": "y", "archive_info": {"hash": f"sha256={'b' * 64}"}},
        },
    ],
}


def test_parse_report_reads_names_versions_and_either_hash_form() -> None:
    assert parse_report(REPORT) == (
        Resolved("numpy", "2.1.0", (), (f"sha256:{'b' * 64}",)),
        Resolved(
            "tensorflow",
            "2.21.0",
            ("numpy>=1.26", 'six; python_version < "3"'),
            ("sha256:" + "a" * 64,),
        ),
    )


@pytest.mark.parametrize(
    "item",
    [{"metadata": {"name": "x"}}, {"download_info": {}}, "numpy"],
    ids=["no-version", "no-metadata", "not-an-object"],
)
def test_a_malformed_report_is_a_report_error(item: Any) -> None:
    with pytest.raises(ReportError):
        parse_report({"install": [item]})


class FakePip:
    """A runner that answers as pip would, writing ``report`` where pip is told to."""

    def __init__(
        self, report: Optional[dict[str, Any]] = None, code: int = 0, stderr: str = ""
    ) -> None:
        self.report, self.code, self.stderr = report, code, stderr
        self.calls: list[tuple[list[str], dict[str, str]]] = []

    def __call__(
        self, argv: Sequence[str], env: Optional[Mapping[str, str]], timeout: float
    ) -> CommandResult:
        self.calls.append((list(argv), dict(env or {})))
        if self.report is not None:
            path = argv[list(argv).index("--report") + 1]
            Path(path).write_text(json.dumps(self.report), encoding="utf-8")
        return CommandResult(tuple(argv), self.code, "", self.stderr, 0.1)


def pins_for(matrix: Matrix, **kw: str) -> tuple[Pinset, Target]:
    target = make_target(matrix, **kw)
    return target_pinset(matrix, target), target


def test_pip_is_told_the_target_and_nothing_of_this_machines_pip_config(matrix: Matrix) -> None:
    ranges, target = pins_for(matrix, python="3.12", platform="linux", gpu="8.6")
    fake = FakePip(REPORT)
    env = {"PIP_CONSTRAINT": "/etc/c.txt", "PIP_INDEX_URL": "http://elsewhere", "HOME": "/h"}
    pinset = resolve_target(ranges, target, matrix, run=fake, env=env)
    ((argv, child_env),) = fake.calls
    assert child_env == {"HOME": "/h", "PIP_CONFIG_FILE": os.devnull}
    assert argv[0] == sys.executable and argv[1] == "-c"
    assert json.loads(argv[3])["python_version"] == "3.12"
    pip_args = argv[4:]
    assert pip_args[:3] == ["install", "--dry-run", "--ignore-installed"]
    for flag in ("--isolated", "--only-binary=:all:", "--report"):
        assert flag in pip_args
    assert pip_args[pip_args.index("--python-version") + 1] == "3.12"
    assert pip_args[pip_args.index("--index-url") + 1] == "https://pypi.org/simple"
    assert pip_args[-1] == "tensorflow[and-cuda]==2.21.0"
    assert pinset.mode == "resolved"
    assert [e.requirement() for e in pinset.entries] == [
        "numpy==2.1.0",
        "tensorflow[and-cuda]==2.21.0",
    ]
    assert pinset.entry("numpy") == PinEntry("numpy", "==2.1.0", via=("tensorflow",))
    assert pinset.provenance[-1] == ("Smoke test", "not run (a target, not this environment)")
    assert "pip 99.0's resolver" in dict(pinset.provenance)["Resolved"]


def test_a_dropped_extra_asks_for_its_wheels_one_by_one(matrix: Matrix) -> None:
    # TensorFlow 2.14's and-cuda extra needs TensorRT 8.5, which has no Python 3.11 wheel.
    ranges, target = pins_for(matrix, python="3.11", platform="linux", driver="470.82.01")
    fake = FakePip(REPORT)
    resolve_target(ranges, target, matrix, run=fake)
    requested = fake.calls[0][0][-len(ranges.requested) :]
    assert requested[0] == "tensorflow==2.14.1"
    assert "nvidia-cudnn-cu11==8.7.0.84" in requested
    assert not any(r.startswith("tensorrt") for r in requested)


def test_the_reasons_of_hand_pinned_entries_stay(matrix: Matrix) -> None:
    ranges, target = pins_for(matrix, python="3.11", platform="linux", driver="470.82.01")
    resolved = (
        Resolved("nvidia-cudnn-cu11", "8.7.0.84", (), ()),
        Resolved("tensorflow", "2.14.1", (), ()),
    )
    wheels = wheel_target(matrix, ranges, target)
    pinset = resolved_pinset(ranges, resolved, wheels, "test")
    cudnn = pinset.entry("nvidia-cudnn-cu11")
    assert cudnn is not None and cudnn.marker == 'sys_platform == "linux"'
    assert cudnn.via == ("tensorflow[and-cuda] without tensorrt (see the warning)",)
    assert pinset.warnings == ranges.warnings


@pytest.mark.parametrize(
    ("code", "stderr", "error", "message"),
    [
        pytest.param(
            98, "pip 21.3.1\n", ResolveError, "needs pip >= 22.2 (install --dry-run --report)",
            id="old-pip",
        ),
        pytest.param(97, "no pip: No module named pip\n", ResolveError, "pip is not installed",
                     id="no-pip"),
        pytest.param(
            1,
            "WARNING: Retrying (Retry(total=1, connect=None, read=None, redirect=None, status=None"
            ")) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection."
            "HTTPSConnection object at 0x7f>: Failed to establish a new connection: [Errno -3] "
            "Temporary failure in name resolution')': /simple/tensorflow/\n"
            "ERROR: Could not find a version that satisfies the requirement tensorflow==2.21.0 "
            "(from versions: none)\nERROR: No matching distribution found for "
            "tensorflow==2.21.0\n",
            ResolveError,
            "cannot reach the package index https://pypi.org/simple ([Errno -3] Temporary "
            "failure in name resolution)",
            id="unreachable",
        ),
        pytest.param(
            1,
            "ERROR: Cannot install tensorflow because these package versions have conflicting "
            "dependencies.\nERROR: ResolutionImpossible: for help visit https://pip.pypa.io\n",
            PinError,
            "pip finds nothing on https://pypi.org/simple that installs "
            "tensorflow[and-cuda]==2.21.0 for CPython 3.12 wheels for manylinux_2_28_x86_64 and "
            "older: Cannot install tensorflow because",
            id="impossible",
        ),
        pytest.param(2, "Traceback ...\nKeyError: 'x'\n", ResolveError, "pip failed: KeyError",
                     id="crash"),
    ],
)  # fmt: skip
def test_pips_failures_are_one_line_errors(
    matrix: Matrix, code: int, stderr: str, error: type[Exception], message: str
) -> None:
    ranges, target = pins_for(matrix, python="3.12", platform="linux", gpu="8.6")
    with pytest.raises(error) as exc:
        resolve_target(ranges, target, matrix, run=FakePip(code=code, stderr=stderr))
    assert message in str(exc.value)
    assert "\n" not in str(exc.value)


def test_a_timeout_and_a_missing_interpreter_are_resolve_errors(matrix: Matrix) -> None:
    ranges, target = pins_for(matrix, python="3.12", platform="linux")

    def slow(argv: Sequence[str], env: Optional[Mapping[str, str]], timeout: float) -> Any:
        return CommandResult(tuple(argv), None, "", "", timeout, timed_out=True)

    with pytest.raises(ResolveError, match="did not finish resolving within 5 s"):
        resolve_target(ranges, target, matrix, run=slow, timeout=5)
    with pytest.raises(ResolveError, match="cannot run /nonexistent/python"):
        resolve_target(ranges, target, matrix, run=run_command, python="/nonexistent/python")


def fake_pip_package(tmp_path: Path, init: str) -> dict[str, str]:
    package = tmp_path / "shadow" / "pip"
    (package / "_vendor" / "packaging").mkdir(parents=True)
    (package / "__init__.py").write_text(init, encoding="utf-8")
    (package / "_vendor" / "__init__.py").write_text("", encoding="utf-8")
    (package / "_vendor" / "packaging" / "__init__.py").write_text("", encoding="utf-8")
    (package / "_vendor" / "packaging" / "markers.py").write_text("", encoding="utf-8")
    return dict(os.environ, PYTHONPATH=str(tmp_path / "shadow"))


@pytest.mark.parametrize(
    ("init", "message"),
    [
        pytest.param('__version__ = "21.3.1"\n', "has pip 21.3.1", id="old"),
        pytest.param('raise ImportError("No module named pip")\n', "not installed", id="none"),
    ],
)
def test_the_child_checks_pip_before_running_it(
    matrix: Matrix, tmp_path: Path, init: str, message: str
) -> None:
    ranges, target = pins_for(matrix, python="3.12", platform="linux")
    env = fake_pip_package(tmp_path, init)
    with pytest.raises(ResolveError, match=message):
        resolve_target(ranges, target, matrix, run=run_command, env=env)


def test_make_pins_turns_resolve_errors_into_doctor_errors(tmp_path: Path) -> None:
    facts = write_facts(tmp_path, gpu_facts())
    options = PinOptions(
        python_version="3.12", platform="linux", resolve=True, facts_file=str(facts)
    )
    with pytest.raises(DoctorError, match=r"^--resolve: pip is not installed"):
        make_pins(options, runner=FakePip(code=97, stderr="no pip\n"))


# --- hashes: the report's digest with the index's list ----------------------------------------


def test_hashes_join_the_chosen_files_digest_to_the_releases_files() -> None:
    page = parse_simple_html(
        '<a href="../../files/six-1.17.0-py2.py3-none-any.whl#sha256=' + "c" * 64 + '">'
        "six-1.17.0-py2.py3-none-any.whl</a>"
        '<a href="/f/six-1.17.0.tar.gz#sha256=' + "d" * 64 + '">six-1.17.0.tar.gz</a>'
        '<a href="/f/six-1.16.0.tar.gz#sha256=' + "e" * 64 + '">six-1.16.0.tar.gz</a>'
    )
    assert parse_release_hashes(page, "six", "1.17.0") == (
        "sha256:" + "c" * 64,
        "sha256:" + "d" * 64,
    )
    chosen = PinEntry("six", "==1.17.0", hashes=("sha256:" + "c" * 64,))
    hashed = add_hashes(Pinset("resolved", (chosen,)), lambda name: page)
    assert hashed.entries[0].hashes == ("sha256:" + "c" * 64, "sha256:" + "d" * 64)


def test_html_link_text_falls_back_to_the_url() -> None:
    page = parse_simple_html('<a href="https://h/p/numpy-2.1.0-cp312-cp312-any.whl">\n</a>')
    assert page["files"] == [
        {
            "filename": "numpy-2.1.0-cp312-cp312-any.whl",
            "url": "https://h/p/numpy-2.1.0-cp312-cp312-any.whl",
            "hashes": {},
        }
    ]


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://pypi.org/simple", "https://pypi.org/simple"),
        ("https://u:tok@h.example/simple", "https://u:****@h.example/simple"),
        ("https://tok@h.example/simple", "https://****@h.example/simple"),
    ],
)
def test_display_url_hides_credentials(url: str, shown: str) -> None:
    assert display_url(url) == shown


def test_run_resolver_reports_the_real_pip(index: tuple[Index, str], matrix: Matrix) -> None:
    _, url = index
    wheels = WheelTarget("3.12", "linux-x86_64", platform_tags("linux-x86_64"), {})
    wheels = WheelTarget(
        wheels.python, wheels.platform, wheels.tags, target_markers("3.12", "linux-x86_64")
    )
    report = run_resolver(["numpy<2"], wheels, index_url=url, run=run_command)
    assert [(r.name, r.version) for r in parse_report(report)] == [("numpy", "1.26.4")]
