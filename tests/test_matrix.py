"""The compatibility matrix: loading and validation, fuzzed input, and the queries' promises."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Optional

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from packaging.specifiers import SpecifierSet

from tests.factories import FIXTURE_MATRIX, FIXTURE_MATRIX_PATH, with_release
from tfdoctor.compat import (
    NONE,
    PTX,
    SASS,
    Target,
    TargetError,
    driver_floor,
    evaluate,
    gpu_code,
    install_requirement,
    make_target,
    newest_fit,
    platform_key,
    platform_of,
    ptx_driver_floor,
    python_minor,
    verdicts,
)
from tfdoctor.matrix import (
    DEFAULT_MATRIX,
    MATRIX_ENV,
    OPERATING_SYSTEMS,
    PLATFORMS,
    ComputeCapabilities,
    CudaFamily,
    CudaToolkit,
    EarlyRelease,
    Matrix,
    MatrixError,
    Pins,
    TFLine,
    above_range,
    admits_below,
    exact_pin,
    load_matrix,
    parse_arch,
    parse_matrix,
    ranges_meet,
    version_key,
)

ROOT = Path(__file__).resolve().parent.parent

#: A small valid matrix: one source, one toolkit, one family, two lines. The
#: validation cases below change one thing each and name the line it is on.
VALID_MATRIX = """\
schema_version: 1
sources:
  - id: pypi
    title: "tensorflow {version} on PyPI"
    url: "https://pypi.org/project/tensorflow/{version}/"
cuda_toolkits:
  - cuda: "12.2"
    min_driver_linux: "535.54.03"
    min_driver_windows: "536.25"
    source: pypi
cuda_families:
  - major: 12
    min_driver_linux: "525.60.13"
    min_driver_windows: "527.41"
    source: [pypi]
tensorflow:
  - line: "2.15"
    latest_patch: "2.15.1"
    requires_python: ">=3.9"
    python:
      linux-x86_64: ["3.9", "3.10", "3.11"]
      linux-aarch64: []
      macos-x86_64: []
      macos-arm64: []
      windows-x86_64: []
    glibc_min: "2.17"
    gpu_package: {linux: "tensorflow", windows: null, macos: null}
    windows_native_gpu: false
    wrappers: {}
    cuda: "12.2"
    cudnn: "8.9"
    compute_capabilities: {sass: [sm_70, sm_75], ptx: [compute_80]}
    pins:
      numpy: "<2.0.0,>=1.23.5"
      protobuf: null
      keras: null
      tf_keras: null
      ml_dtypes: null
    and_cuda:
      nvidia-cudnn-cu12: "==8.9.4.25"
    sources:
      latest_patch: pypi
      requires_python: pypi
      python: pypi
      glibc_min: pypi
      gpu_package: pypi
      windows_native_gpu: pypi
      cuda: pypi
      cudnn: pypi
      compute_capabilities: pypi
      pins: pypi
      and_cuda: pypi
      cuda_builds: pypi
    cuda_builds: [linux-x86_64]
  - line: "2.0"
    latest_patch: "2.0.4"
    requires_python: null
    python: {linux-x86_64: ["3.6", "3.7"], linux-aarch64: [], macos-x86_64: [], \
macos-arm64: [], windows-x86_64: []}
    glibc_min: null
    gpu_package: {linux: null, windows: null, macos: null}
    windows_native_gpu: true
    wrappers: {windows-x86_64: "tensorflow-intel"}
    cuda: null
    cudnn: null
    compute_capabilities: null
    pins: {numpy: null, protobuf: null, keras: null, tf_keras: null, ml_dtypes: null}
    and_cuda: null
    sources: {latest_patch: pypi, python: pypi, gpu_package: pypi, windows_native_gpu: pypi, \
wrappers: pypi, cuda_builds: pypi}
    cuda_builds: [windows-x86_64]
"""

#: The frozen fixture: the look-ups and verdicts are tested on it, so a release added to the
#: shipped matrix changes no expectation here.
MATRIX = FIXTURE_MATRIX
#: The shipped matrix: only its invariants are tested (and the facts of particular lines).
SHIPPED = load_matrix(env={})


def line(name: str, matrix: Matrix = MATRIX) -> TFLine:
    """A line that must exist."""
    entry = matrix.line_for(name)
    assert entry is not None, name
    return entry


def sub(old: str, new: str) -> Callable[[str], str]:
    """A mutation replacing the one occurrence of ``old``."""

    def mutate(text: str) -> str:
        assert text.count(old) == 1, f"{old!r} must occur once in the valid matrix"
        return text.replace(old, new)

    return mutate


def parse_error(text: str, path: str = "m.yaml") -> str:
    """The MatrixError message ``text`` raises."""
    with pytest.raises(MatrixError) as info:
        parse_matrix(text, path)
    return str(info.value)


# --- the bundled matrix ----------------------------------------------------------------------


def test_bundled_matrix_is_the_repository_file() -> None:
    assert DEFAULT_MATRIX.read_text(encoding="utf-8") == (ROOT / "compat_matrix.yaml").read_text(
        encoding="utf-8"
    )
    assert SHIPPED.path == str(DEFAULT_MATRIX)


def entry_faults(matrix: Matrix, entry: TFLine, file_lines: Sequence[str]) -> list[str]:
    """What is incomplete about one line: a malformed name or newest release, a platform or
    operating system missing, no Linux wheel, no source for its Python versions or newest
    release, a line number that does not point at it, an unknown toolkit or GPU architecture."""
    checks = {
        "name": re.fullmatch(r"\d+\.\d+", entry.line) is not None,
        "latest_patch": entry.latest_patch.startswith(entry.line + "."),
        "platforms": set(entry.python) == set(PLATFORMS) and set(entry.wrappers) <= set(PLATFORMS),
        "linux wheels": bool(entry.python.get("linux-x86_64")),
        "gpu_package": set(entry.gpu_package) == set(OPERATING_SYSTEMS),
        "types": isinstance(entry.pins, Pins) and isinstance(entry.windows_native_gpu, bool),
        "sources": bool(entry.sources_of("python") and entry.sources_of("latest_patch")),
        # lineno points at the entry in the file (messages and docs cite it).
        "lineno": 0 < entry.lineno <= len(file_lines)
        and file_lines[entry.lineno - 1].strip() == f'- line: "{entry.line}"',
        "cuda": entry.cuda is None
        or getattr(matrix.toolkit(entry.cuda), "cuda", None) == entry.cuda,
        "architectures": entry.compute_capabilities is None
        or all(
            parse_arch(a)
            for a in (*entry.compute_capabilities.sass, *entry.compute_capabilities.ptx)
        ),
    }
    return [f"{entry.line}: {what}" for what, ok in checks.items() if not ok]


def matrix_faults(matrix: Matrix, file_lines: Sequence[str]) -> list[str]:
    """What keeps the matrix's lines from being complete, sourced and newest first, once each."""
    keys = [entry.key for entry in matrix.lines]
    faults = [] if keys == sorted(keys, reverse=True) else ["lines not newest first"]
    faults += [] if len(set(keys)) == len(keys) else ["a line listed twice"]
    faults += [x for entry in matrix.lines for x in entry_faults(matrix, entry, file_lines)]
    cited = {s for e in matrix.lines for ids in e.sources.values() for s in ids}
    faults += [
        f"source {sid} is not https"
        for sid in sorted(cited)
        if sid not in matrix.sources or not matrix.sources[sid].url.startswith("https://")
    ]
    return faults


FILE_LINES = DEFAULT_MATRIX.read_text(encoding="utf-8").splitlines()


def test_every_line_is_complete_and_newest_first() -> None:
    assert len(SHIPPED.lines) >= 20
    assert matrix_faults(SHIPPED, FILE_LINES) == []


def _with_line(index: int, **change: object) -> Matrix:
    lines = list(SHIPPED.lines)
    lines[index] = dataclasses.replace(lines[index], **change)  # type: ignore[arg-type]
    return dataclasses.replace(SHIPPED, lines=tuple(lines))


@pytest.mark.parametrize(
    ("planted", "fault"),
    [
        pytest.param(
            lambda: dataclasses.replace(
                SHIPPED, lines=(SHIPPED.lines[1], SHIPPED.lines[0], *SHIPPED.lines[2:])
            ),
            "lines not newest first",
            id="order",
        ),
        pytest.param(lambda: _with_line(0, line=SHIPPED.lines[0].line + " "), ": name", id="name"),
        pytest.param(lambda: _with_line(1, latest_patch="1.0.0"), ": latest_patch", id="patch"),
        pytest.param(
            lambda: _with_line(1, python={**SHIPPED.lines[1].python, "linux-x86_64": ()}),
            ": linux wheels",
            id="no-linux-wheels",
        ),
        pytest.param(lambda: _with_line(1, gpu_package={}), ": gpu_package", id="gpu-package"),
        pytest.param(lambda: _with_line(1, sources={}), ": sources", id="unsourced"),
        pytest.param(lambda: _with_line(1, lineno=1), ": lineno", id="lineno"),
        pytest.param(lambda: _with_line(1, cuda="0.1"), ": cuda", id="unknown-toolkit"),
        pytest.param(
            lambda: dataclasses.replace(
                SHIPPED,
                sources={
                    k: dataclasses.replace(v, url="http://example.org")
                    for k, v in SHIPPED.sources.items()
                },
            ),
            "is not https",
            id="http-source",
        ),
    ],
)
def test_a_planted_incomplete_line_is_caught(planted: Callable[[], Matrix], fault: str) -> None:
    faults = matrix_faults(planted(), FILE_LINES)
    assert any(fault in x for x in faults), faults


@pytest.mark.parametrize(
    ("version", "expected"),
    [
        pytest.param("2.16.1", "2.16", id="patch"),
        pytest.param("2.16.0rc0", "2.16", id="release-candidate"),
        pytest.param("2.16", "2.16", id="line"),
        pytest.param("1.15.5", "1.15", id="tf1"),
        pytest.param("3.0", None, id="future"),
        pytest.param("nightly", None, id="no-version"),
    ],
)
def test_line_for(version: str, expected: Optional[str]) -> None:
    found = MATRIX.line_for(version)
    assert (found.line if found else None) == expected


@pytest.mark.parametrize(
    ("name", "capability"),
    [
        pytest.param("NVIDIA A100-SXM4-80GB", "8.0", id="a100-driver-name"),
        pytest.param("Tesla T4", "7.5", id="tesla-t4"),
        pytest.param("NVIDIA GeForce RTX 4090", "8.9", id="rtx-4090"),
        pytest.param("NVIDIA GeForce RTX 3090 Ti", "8.6", id="longest-name-wins"),
        pytest.param("NVIDIA A10", "8.6", id="a10-not-a100"),
        pytest.param("Tesla V100-SXM2-16GB", "7.0", id="v100-driver-name"),
        pytest.param("NVIDIA GH200 480GB", "9.0", id="gh200-not-h200"),
        pytest.param("Voodoo 5 5500", None, id="unknown"),
    ],
)
def test_gpu_model(name: str, capability: Optional[str]) -> None:
    model = MATRIX.gpu_model(name)
    assert (model.compute_capability if model else None) == capability


def test_wrapper_platforms_gathers_every_line_s_wrappers() -> None:
    """Each one-platform distribution with every platform where some line requires it."""
    wrappers = SHIPPED.wrapper_platforms()
    assert wrappers["tensorflow-intel"] == ("windows-x86_64",)
    assert wrappers["tensorflow-cpu-aws"] == ("linux-aarch64",)
    assert wrappers["tensorflow-macos"] == ("macos-arm64",)
    listed = {(d, k) for line in SHIPPED.lines for k, d in line.wrappers.items()}
    assert {(d, k) for d, keys in wrappers.items() for k in keys} == listed


# --- validation ------------------------------------------------------------------------------


def test_valid_matrix_parses() -> None:
    matrix = parse_matrix(VALID_MATRIX, "m.yaml")
    assert [e.line for e in matrix.lines] == ["2.15", "2.0"]
    assert [(e.line, e.lineno) for e in matrix.lines] == [("2.15", 17), ("2.0", 55)]
    assert matrix.path == "m.yaml"
    assert matrix.lines[1].windows_native_gpu is True
    assert matrix.lines[0].sources_of("pins.numpy") == ("pypi",)
    gpu = matrix.gpu_model("Tesla T4")
    assert gpu is not None and gpu.compute_capability == "7.5"


_EXTRA_TOOLKIT = """\
    source: pypi
  - cuda: "11.8"
    min_driver_linux: "520.61.05"
    min_driver_windows: "520.06"
    source: pypi
cuda_families:"""


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        pytest.param(
            sub('    title: "tensorflow {version} on PyPI"', "    title: tensorflow: {version}"),
            "m.yaml:4: YAML syntax error: mapping values are not allowed in this context",
            id="yaml-syntax",
        ),
        pytest.param(
            lambda _text: "",
            "m.yaml:1: the matrix is empty",
            id="empty-file",
        ),
        pytest.param(
            sub("schema_version: 1\n", "schema_version: 1\ncolour: blue\n"),
            "m.yaml:2: matrix.colour: unknown field (expected one of: cuda_families, "
            "cuda_toolkits, early_releases, schema_version, sources, tensorflow)",
            id="unknown-top-level-field",
        ),
        pytest.param(
            sub("schema_version: 1", "schema_version: 2"),
            "m.yaml:1: schema_version: 2 is not supported (this tfdoctor reads 1)",
            id="schema-version-2",
        ),
        pytest.param(
            sub('    cudnn: "8.9"\n', ""),
            "m.yaml:17: tensorflow[0].cudnn: missing field",
            id="missing-field-in-line",
        ),
        pytest.param(
            sub('    cudnn: "8.9"\n', '    cudnn: "8.9"\n    colour: blue\n'),
            "m.yaml:32: tensorflow[0].colour: unknown field (expected one of: and_cuda, "
            "compute_capabilities, cuda, cuda_builds, cuda_install, cudnn, glibc_min, "
            "gpu_package, keras_in_step, known_gpu_failures, latest_patch, line, notes, "
            "numpy_abi, onednn_opts, pins, python, requires_python, sources, "
            "tensorflow_gpu_release, "
            "tf_trt, tolerated_ranges, undeclared_ranges, windows_native_gpu, wrappers, "
            "xla_by_default)",
            id="unknown-field-in-line",
        ),
        pytest.param(
            sub('  - line: "2.15"', "  - line: 2.10"),
            "m.yaml:17: tensorflow[0].line: expected a string, got '2.10' "
            "(quote versions: YAML reads 2.10 as 2.1)",
            id="unquoted-version",
        ),
        pytest.param(
            sub('latest_patch: "2.15.1"', 'latest_patch: "2.15"'),
            "m.yaml:18: tensorflow[2.15].latest_patch: '2.15' is not a valid release version "
            "(X.Y.Z, or X.Y.ZrcN before the line's first final)",
            id="latest-patch-not-x-y-z",
        ),
        pytest.param(
            sub('latest_patch: "2.15.1"', 'latest_patch: "2.14.1"'),
            "m.yaml:18: tensorflow[2.15].latest_patch: 2.14.1 is not a 2.15 release",
            id="latest-patch-of-another-line",
        ),
        pytest.param(
            sub('numpy: "<2.0.0,>=1.23.5"', 'numpy: "=>1.23.5"'),
            "m.yaml:34: tensorflow[2.15].pins.numpy: '=>1.23.5' is not a valid version specifier",
            id="bad-numpy-specifier",
        ),
        pytest.param(
            sub('"==8.9.4.25"', '"8.9.4.25"'),
            "m.yaml:40: tensorflow[2.15].and_cuda.nvidia-cudnn-cu12: '8.9.4.25' is not a valid "
            "version specifier",
            id="bad-and-cuda-specifier",
        ),
        pytest.param(
            sub(
                '  - line: "2.0"\n    latest_patch: "2.0.4"',
                '  - line: "2.15"\n    latest_patch: "2.15.0"',
            ),
            "m.yaml:55: tensorflow[2.15].line: duplicate line",
            id="duplicate-line",
        ),
        pytest.param(
            sub(
                '  - line: "2.0"\n    latest_patch: "2.0.4"',
                '  - line: "2.16"\n    latest_patch: "2.16.0"',
            ),
            "m.yaml:55: tensorflow[2.16].line: lines must be sorted newest first",
            id="unsorted-lines",
        ),
        pytest.param(
            sub('["3.9", "3.10", "3.11"]', '["3.10", "3.9", "3.11"]'),
            "m.yaml:21: tensorflow[2.15].python.linux-x86_64: versions must be sorted, "
            "without duplicates",
            id="python-versions-unsorted",
        ),
        pytest.param(
            sub("      linux-aarch64: []\n", "      linux-riscv64: []\n"),
            "m.yaml:22: tensorflow[2.15].python.linux-riscv64: unknown field (expected one of: "
            "linux-aarch64, linux-x86_64, macos-arm64, macos-x86_64, windows-x86_64)",
            id="unknown-platform-key",
        ),
        pytest.param(
            sub("      pins: pypi\n", ""),
            "m.yaml:34: tensorflow[2.15].pins.numpy: no source "
            "(add sources.pins or sources.pins.numpy)",
            id="pin-without-source",
        ),
        pytest.param(
            sub("      cudnn: pypi", "      cudnn: nvidia-docs"),
            "m.yaml:49: tensorflow[2.15].sources.cudnn: unknown source 'nvidia-docs' "
            "(define it under sources)",
            id="undefined-source-id",
        ),
        pytest.param(
            sub("  - id: pypi", "  - id: PyPI"),
            "m.yaml:3: sources[0].id: 'PyPI' is not a valid source id",
            id="source-id-pattern",
        ),
        pytest.param(
            sub('url: "https://pypi.org', 'url: "http://pypi.org'),
            "m.yaml:5: sources[pypi].url: must be an https:// URL",
            id="non-https-url",
        ),
        pytest.param(
            sub("    source: pypi\ncuda_families:", _EXTRA_TOOLKIT),
            "m.yaml:11: cuda_toolkits[11.8].cuda: rows must be sorted oldest first, "
            "without duplicates",
            id="toolkit-rows-unsorted",
        ),
        pytest.param(
            sub('    cuda: "12.2"', '    cuda: "12.4"'),
            "m.yaml:17: tensorflow[2.15].cuda: CUDA 12.4 has no row in cuda_toolkits",
            id="line-cuda-without-toolkit",
        ),
        pytest.param(
            sub("sass: [sm_70, sm_75]", "sass: [sm_x, sm_75]"),
            "m.yaml:32: tensorflow[2.15].compute_capabilities.sass: 'sm_x' is not a sm_XY "
            "architecture",
            id="bad-arch",
        ),
        pytest.param(
            sub("windows_native_gpu: false", 'windows_native_gpu: "false"'),
            "m.yaml:28: tensorflow[2.15].windows_native_gpu: expected true or false, got 'false'",
            id="bool-as-string",
        ),
        pytest.param(
            sub("windows_native_gpu: false", "windows_native_gpu: true"),
            "m.yaml:28: tensorflow[2.15].windows_native_gpu: true disagrees with cuda_builds "
            "(has no windows-x86_64)",
            id="windows-gpu-without-windows-cuda-build",
        ),
        pytest.param(
            sub("cuda_builds: [linux-x86_64]", "cuda_builds: [linux-x86_64, windows-x86_64]"),
            "m.yaml:28: tensorflow[2.15].windows_native_gpu: false disagrees with cuda_builds "
            "(lists windows-x86_64)",
            id="windows-cuda-build-without-windows-gpu",
        ),
    ],
)
def test_invalid_matrix_names_file_line_and_field(
    mutate: Callable[[str], str], message: str
) -> None:
    assert parse_error(mutate(VALID_MATRIX)) == message


def test_fact_without_source_names_the_field_once() -> None:
    text = sub("      cuda: pypi\n", "")(VALID_MATRIX)
    assert parse_error(text) == "m.yaml:30: tensorflow[2.15].cuda: no source (add sources.cuda)"


@pytest.mark.parametrize("value", ["0x1", "0b1", "1:30"], ids=["hex", "binary", "sexagesimal"])
def test_non_decimal_integer_is_a_matrix_error(value: str) -> None:
    text = sub("schema_version: 1", f"schema_version: {value}")(VALID_MATRIX)
    # Read as the integer YAML means, or refused with a message: either, never a ValueError.
    try:
        parse_matrix(text, "m.yaml")
    except MatrixError as exc:
        assert str(exc).startswith("m.yaml:1: schema_version: "), str(exc)


def test_control_character_is_one_line_at_its_line() -> None:
    text = sub('    cudnn: "8.9"', '    cudnn: "8.9\x00"')(VALID_MATRIX)
    message = parse_error(text)
    assert "\n" not in message
    assert re.match(r"^m\.yaml:31: YAML syntax error: .*#x0000", message), message


def test_unknown_sub_fact_in_sources() -> None:
    text = sub("      pins: pypi\n", "      pins: pypi\n      pins.numpyy: pypi\n")(VALID_MATRIX)
    assert parse_error(text) == (
        "m.yaml:52: tensorflow[2.15].sources.pins.numpyy: not a fact of this entry"
    )


def test_a_tolerated_range_cites_its_own_source_only_where_the_line_tolerates_it() -> None:
    tolerated = sub(
        "    sources:\n      latest_patch: pypi\n",
        '    tolerated_ranges:\n      h5py: "<3"\n    sources:\n      latest_patch: pypi\n'
        "      tolerated_ranges: pypi\n      tolerated_ranges.h5py: pypi\n",
    )(VALID_MATRIX)
    line = parse_matrix(tolerated, "m.yaml").line_for("2.15.0")
    assert line is not None and line.tolerated_ranges == {"h5py": "<3"}
    assert line.sources_of("tolerated_ranges.h5py") == ("pypi",)
    other = tolerated.replace("tolerated_ranges.h5py: pypi", "tolerated_ranges.numpy: pypi")
    assert parse_error(other).endswith(
        "tensorflow[2.15].sources.tolerated_ranges.numpy: not a fact of this entry"
    )


#: The 2.15 line of VALID_MATRIX with the optional fact ``field: value``, cited unless not.
def _with_fact(field: str, value: str, cited: bool = True) -> str:
    cite = f"      {field}: pypi\n" if cited else ""
    return sub(
        "    sources:\n      latest_patch: pypi\n",
        f"    {field}: {value}\n    sources:\n      latest_patch: pypi\n{cite}",
    )(VALID_MATRIX)


#: The 2.15 line of VALID_MATRIX reading TF_ENABLE_ONEDNN_OPTS, with ``value``.
def _onednn_opts(value: str, cited: bool = True) -> str:
    return _with_fact("onednn_opts", value, cited)


#: The 2.15 line of VALID_MATRIX compiled against NumPy ABI ``value``.
def _numpy_abi(value: str, cited: bool = True) -> str:
    return _with_fact("numpy_abi", value, cited)


#: Where the errors below point: the 2.15 line of VALID_MATRIX.
_AT_2_15 = "m.yaml:41: tensorflow[2.15]"
#: (id, matrix text, error) of optional facts the loader refuses.
_WRONG_OPTIONAL_FACTS = (
    (
        "onednn-not-a-boolean",
        _onednn_opts('"yes"'),
        "onednn_opts: expected true or false, got 'yes'",
    ),
    ("onednn-a-release", _onednn_opts('"2.5"'), "onednn_opts: expected true or false, got '2.5'"),
    (
        "onednn-uncited",
        _onednn_opts("true", False),
        "onednn_opts: no source (add sources.onednn_opts)",
    ),
    ("numpy-abi-not-an-abi", _numpy_abi("3"), "numpy_abi: 3 is not a NumPy ABI (one of 1, 2)"),
    ("numpy-abi-a-string", _numpy_abi('"1"'), "numpy_abi: expected an integer, got '1'"),
    ("numpy-abi-uncited", _numpy_abi("1", False), "numpy_abi: no source (add sources.numpy_abi)"),
)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(text, f"{_AT_2_15}.{error}", id=name)
        for name, text, error in _WRONG_OPTIONAL_FACTS
    ],
)
def test_a_wrong_optional_fact_is_refused(text: str, message: str) -> None:
    assert parse_error(text) == message


def test_onednn_opts_since_is_the_oldest_line_reading_it_after_one_that_does_not() -> None:
    matrix = parse_matrix(_onednn_opts("true"), "m.yaml")
    since = matrix.onednn_opts_since()
    assert since is not None and since.line == "2.15"
    assert line("2.15", matrix).onednn_opts and not line("2.0", matrix).onednn_opts
    # Every line reads it: where it began is not in the matrix.
    everywhere = _onednn_opts("true").replace(
        "    sources: {latest_patch: pypi,",
        "    onednn_opts: true\n    sources: {onednn_opts: pypi, latest_patch: pypi,",
    )
    assert parse_matrix(everywhere, "m.yaml").onednn_opts_since() is None
    # No line reads it.
    assert parse_matrix(VALID_MATRIX, "m.yaml").onednn_opts_since() is None


def test_numpy_abi_loads_and_unknown_makes_no_claim() -> None:
    matrix = parse_matrix(_numpy_abi("1"), "m.yaml")
    assert line("2.15", matrix).numpy_abi == 1
    assert line("2.15", matrix).runs_on_numpy2() is False
    # No numpy_abi: unknown, which is no claim (not NumPy 1).
    assert line("2.0", matrix).numpy_abi is None
    assert line("2.0", matrix).runs_on_numpy2() is not False
    two = parse_matrix(_numpy_abi("2"), "m.yaml")
    assert line("2.15", two).runs_on_numpy2() is not False


def test_a_later_line_capping_numpy_below_2_marks_no_newer_line() -> None:
    """A maintenance line whose wheel caps numpy<2 says nothing of the lines after it: only a
    line's own numpy_abi does (the order of the lines is no evidence)."""
    shipped = {x.line: x for x in SHIPPED.lines}
    capped = dataclasses.replace(
        shipped["2.17"],
        line="2.23",
        latest_patch="2.23.0",
        pins=dataclasses.replace(shipped["2.17"].pins, numpy="<2.0.0,>=1.26.0"),
        numpy_abi=None,
    )
    matrix = dataclasses.replace(SHIPPED, lines=(capped, *SHIPPED.lines))
    assert capped.runs_on_numpy2() is None
    for name in ("2.18", "2.19", "2.20", "2.21", "2.22"):
        assert shipped[name].runs_on_numpy2() is True, name
    assert shipped["2.17"].runs_on_numpy2() is False
    # The lines NumPy 2.0.2 selects by their numpy pins: NumPy 2 builds only; the floor-only
    # NumPy 1 builds (2.7-2.11) are judged with NumPy 1's cap, the capped line by its pin.
    takes = {
        x.line for x in matrix.lines_pinning("numpy", lambda spec: "2.0.2" in SpecifierSet(spec))
    }
    assert {"2.18", "2.19", "2.20", "2.21", "2.22"} <= takes
    assert not takes & {"2.23", "2.17", "2.11", "2.7"}


def test_the_shipped_numpy_abis() -> None:
    """2.18 is the first line compiled with NumPy 2 (its release notes); every older line was
    built against NumPy 1.x (a wheel pin refusing NumPy 2, or released before NumPy 2.0.0);
    each claim cites its sources."""
    for x in SHIPPED.lines:
        assert x.numpy_abi == (2 if x.key >= (2, 18) else 1), x.line
        assert x.sources_of("numpy_abi"), x.line


@pytest.mark.parametrize(
    ("version", "os_name", "dist"),
    [
        pytest.param("1.14.0", "linux", "tensorflow-gpu", id="older-than-every-line"),
        pytest.param("2.0.4", "linux", "tensorflow-gpu", id="tensorflow-gpu-line"),
        pytest.param("2.0.4", "windows", "tensorflow-gpu", id="tensorflow-gpu-on-windows"),
        pytest.param("2.1.0", "linux", "tensorflow", id="tensorflow-holds-both"),
        pytest.param("2.16.1", "windows", None, id="no-windows-gpu-build"),
        pytest.param("9.9.0", "linux", "tensorflow", id="newer-than-every-line"),
        pytest.param("nightly", "linux", None, id="not-a-release"),
    ],
)
def test_the_gpu_distribution_of_a_release(version: str, os_name: str, dist: Optional[str]) -> None:
    assert MATRIX.gpu_distribution(version, os_name) == dist


def test_the_lines_reading_onednn_opts_run_from_the_first_to_the_newest() -> None:
    # One switch, added once: no line after the one that added it goes without.
    for matrix in (SHIPPED, MATRIX):
        since = matrix.onednn_opts_since()
        assert since is not None
        assert all(x.onednn_opts == (x.key >= since.key) for x in matrix.lines)
        assert since.sources_of("onednn_opts")


def test_load_matrix_missing_file_and_directory(tmp_path: Path) -> None:
    missing = tmp_path / "missing.yaml"
    with pytest.raises(MatrixError) as info:
        load_matrix(str(missing), env={})
    assert str(info.value).startswith(f"{missing}: cannot read the matrix: ")
    with pytest.raises(MatrixError) as info:
        load_matrix(str(tmp_path), env={})
    assert str(info.value).startswith(f"{tmp_path}: cannot read the matrix: ")
    assert "\n" not in str(info.value)


def test_load_matrix_reports_the_file_it_read(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(VALID_MATRIX.replace("schema_version: 1", "schema_version: 2"), "utf-8")
    with pytest.raises(MatrixError) as info:
        load_matrix(str(bad), env={})
    assert str(info.value) == f"{bad}:1: schema_version: 2 is not supported (this tfdoctor reads 1)"


def test_env_chooses_the_matrix_and_path_wins(tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text(VALID_MATRIX, encoding="utf-8")
    from_env = load_matrix(env={MATRIX_ENV: str(good)})
    assert from_env.path == str(good)
    assert [e.line for e in from_env.lines] == ["2.15", "2.0"]
    # An explicit path wins over the variable, even one naming a file that is not there.
    chosen = load_matrix(str(good), env={MATRIX_ENV: str(tmp_path / "missing.yaml")})
    assert chosen.path == str(good)
    with pytest.raises(MatrixError) as info:
        load_matrix(env={MATRIX_ENV: str(tmp_path / "missing.yaml")})
    assert str(info.value).startswith(f"{tmp_path / 'missing.yaml'}: cannot read the matrix: ")
    # No path and no variable: the bundled matrix.
    assert load_matrix(env={}).path == str(DEFAULT_MATRIX)


# --- fuzz ------------------------------------------------------------------------------------

_FIXTURE_TEXT = FIXTURE_MATRIX_PATH.read_text(encoding="utf-8")
_FIXTURE_LINES = _FIXTURE_TEXT.splitlines(keepends=True)
# Printable text: control characters are the subject of their own test above.
_CHARS = st.characters(min_codepoint=0x20, max_codepoint=0x7E) | st.sampled_from("\n\t é")


@st.composite
def mutated_matrix(draw: st.DrawFn) -> str:
    """The fixture matrix with one random edit."""
    lines = list(_FIXTURE_LINES)
    index = st.integers(0, len(lines) - 1)
    op = draw(st.sampled_from(["delete", "duplicate", "swap", "replace", "truncate"]))
    if op == "delete":
        del lines[draw(index)]
    elif op == "duplicate":
        i = draw(index)
        lines.insert(i, lines[i])
    elif op == "swap":
        i, j = draw(index), draw(index)
        lines[i], lines[j] = lines[j], lines[i]
    text = "".join(lines)
    if op == "replace":
        at = draw(st.integers(0, len(text) - 1))
        text = text[:at] + draw(_CHARS) + text[at + 1 :]
    elif op == "truncate":
        text = text[: draw(st.integers(0, len(text)))]
    return text


@settings(max_examples=200, deadline=None)
@given(mutated_matrix())
def test_mutated_matrix_loads_or_names_the_line(text: str) -> None:
    path = "fuzz/compat_matrix.yaml"
    try:
        matrix = parse_matrix(text, path)
    except MatrixError as exc:
        message = str(exc)
        assert re.match(rf"^{re.escape(path)}:\d+: \S", message), message
        assert "\n" not in message, message
    else:
        assert isinstance(matrix, Matrix) and matrix.lines


# --- properties of the queries ---------------------------------------------------------------


def _cc(major: int, minor: int) -> str:
    return f"{major}.{minor}"


def _arch_cc(arch: str) -> tuple[int, int]:
    parsed = parse_arch(arch)
    assert parsed is not None
    return parsed[1], parsed[2]


_PYTHONS = sorted(
    {v for e in MATRIX.lines for vs in e.python.values() for v in vs} | {"3.14"},
    key=version_key,
)
_DRIVER_ROWS: list[CudaToolkit | CudaFamily] = [*MATRIX.cuda_toolkits, *MATRIX.cuda_families]
_DRIVERS = sorted(
    {
        d
        for row in _DRIVER_ROWS
        for d in (row.min_driver_linux, row.min_driver_windows)
        if d is not None
    },
    key=version_key,
)
_ARCH_CCS = {
    _cc(*_arch_cc(a))
    for e in MATRIX.lines
    if e.compute_capabilities is not None
    for a in e.compute_capabilities.sass + e.compute_capabilities.ptx
}
_CAPABILITIES = sorted({g.compute_capability for g in MATRIX.gpus} | _ARCH_CCS, key=version_key)


@st.composite
def drivers(draw: st.DrawFn) -> str:
    """A driver from the tables, or one a little older or newer."""
    parts = list(version_key(draw(st.sampled_from(_DRIVERS))))
    where = draw(st.integers(0, len(parts) - 1))
    parts[where] = max(0, parts[where] + draw(st.integers(-2, 2)))
    return ".".join(str(p) for p in parts)


@st.composite
def targets(draw: st.DrawFn) -> Target:
    """A target made of values the matrix itself uses."""
    return Target(
        python=draw(st.none() | st.sampled_from(_PYTHONS)),
        platform=draw(st.none() | st.sampled_from(sorted(PLATFORMS))),
        cuda=draw(st.none() | st.sampled_from([t.cuda for t in MATRIX.cuda_toolkits])),
        driver=draw(st.none() | drivers()),
        gpu=draw(st.none() | st.sampled_from(_CAPABILITIES)),
    )


@settings(max_examples=200, deadline=None)
@given(targets())
def test_verdicts_agree_with_the_data(target: Target) -> None:
    assert_verdicts_agree(MATRIX, target)


def assert_verdicts_agree(matrix: Matrix, target: Target) -> None:
    """The invariants every verdict of ``matrix`` for ``target`` keeps, whatever its lines."""
    plat = target.platform or "linux-x86_64"
    os_name = PLATFORMS[plat]
    found = verdicts(matrix, target)
    assert [v.line for v in found] == list(matrix.lines)
    for verdict in found:
        entry = verdict.line
        # (a) a verdict fits exactly when nothing excludes it, and each reason says something.
        assert verdict.fits == (not verdict.reasons)
        assert all(r.strip() for r in verdict.reasons)
        if not verdict.fits:
            continue
        # (b) a fit for Python P on platform K means a wheel for P on K.
        assert entry.python[plat]
        if target.python is not None:
            assert target.python in entry.python[plat]
        if target.wants_gpu:
            assert os_name != "macos" and entry.cuda is not None
            assert os_name == "linux" or entry.windows_native_gpu
        # (c) a fitting line's driver floor is met.
        floor = driver_floor(matrix, entry, os_name)
        if target.driver is not None and floor is not None:
            assert version_key(target.driver) >= version_key(floor.version)
        if target.gpu is not None and entry.compute_capabilities is not None:
            assert gpu_code(entry.compute_capabilities, target.gpu) != NONE
    # (e) the newest fit is the first fitting line in matrix order that has a final release.
    best = newest_fit(matrix, target)
    first = next((v for v in found if v.fits and not v.line.pre_release), None)
    assert (best.line if best else None) is (first.line if first else None)


@settings(max_examples=200, deadline=None)
@given(targets(), drivers(), drivers())
def test_a_newer_driver_never_excludes_a_line(target: Target, one: str, two: str) -> None:
    older, newer = sorted((one, two), key=version_key)
    with_older = verdicts(MATRIX, dataclasses.replace(target, driver=older))
    with_newer = verdicts(MATRIX, dataclasses.replace(target, driver=newer))
    for old, new in zip(with_older, with_newer):
        if old.fits:
            assert new.fits, (old.line.line, older, newer, new.reasons)


_LINES_WITH_CAPS = [e for e in MATRIX.lines if e.compute_capabilities is not None]


def _caps(entry: TFLine) -> ComputeCapabilities:
    assert entry.compute_capabilities is not None
    return entry.compute_capabilities


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(_LINES_WITH_CAPS), st.data())
def test_gpu_code_rules(entry: TFLine, data: st.DataObject) -> None:
    caps = _caps(entry)
    # Machine code for exactly this capability.
    arch = data.draw(st.sampled_from(caps.sass))
    assert gpu_code(caps, _cc(*_arch_cc(arch))) == SASS
    # Above the newest PTX: PTX, unless machine code of the same major runs it.
    top = max(_arch_cc(a) for a in caps.ptx)
    major = data.draw(st.integers(top[0], top[0] + 3))
    minor = data.draw(st.integers(0, 9))
    assume((major, minor) > top)
    sass_runs = any(m == major and n <= minor for m, n in map(_arch_cc, caps.sass))
    assert gpu_code(caps, _cc(major, minor)) == (SASS if sass_runs else PTX)
    # Below every architecture: nothing runs.
    low = min(_arch_cc(a) for a in caps.sass + caps.ptx)
    below = data.draw(st.tuples(st.integers(1, low[0]), st.integers(0, 9)))
    assume(below < low)
    assert gpu_code(caps, _cc(*below)) == NONE


@pytest.mark.parametrize(
    ("sass", "ptx", "capability", "code"),
    [
        pytest.param(("sm_80",), (), "8.6", SASS, id="sass-same-major-newer-minor"),
        pytest.param(("sm_86",), (), "8.0", NONE, id="sass-older-minor"),
        pytest.param(("sm_80",), (), "9.0", NONE, id="sass-never-across-majors"),
        pytest.param(("sm_90a",), (), "9.0", SASS, id="arch-specific-exact"),
        pytest.param(("sm_90a",), ("compute_90a",), "10.0", NONE, id="arch-specific-no-jit"),
        pytest.param((), ("compute_90a",), "9.0", PTX, id="arch-specific-ptx-exact"),
        pytest.param((), ("compute_70",), "12.0", PTX, id="ptx-any-newer"),
        pytest.param(("sm_100f",), (), "10.3", SASS, id="family-later-minor"),
        pytest.param(("sm_100f",), ("compute_100f",), "12.0", NONE, id="family-not-across"),
        pytest.param((), ("compute_100f",), "10.3", PTX, id="family-ptx-later-minor"),
        pytest.param(("sm_103f",), (), "10.0", NONE, id="family-older-minor"),
        pytest.param(("sm_70",), ("compute_70",), "8.9", PTX, id="sass-then-ptx"),
        pytest.param(("sm_70",), (), "garbage", NONE, id="bad-capability"),
    ],
)
def test_gpu_code_table(
    sass: tuple[str, ...], ptx: tuple[str, ...], capability: str, code: str
) -> None:
    assert gpu_code(ComputeCapabilities(sass, ptx), capability) == code


# --- the doctor's promises -------------------------------------------------------------------


def _newest(**query: str) -> Optional[str]:
    # The frozen matrix: which line is newest must not change when a release is added.
    best = newest_fit(FIXTURE_MATRIX, make_target(FIXTURE_MATRIX, **query))
    return best.line.line if best else None


def _reasons(name: str, matrix: Matrix = MATRIX, **query: str) -> str:
    target = make_target(matrix, **query)
    return "; ".join(evaluate(matrix, line(name, matrix), target).reasons)


@pytest.mark.parametrize(
    ("query", "newest"),
    [
        pytest.param({"python": "3.11", "platform": "linux"}, "2.21", id="py311-linux"),
        pytest.param({"python": "3.8", "platform": "linux"}, "2.13", id="py38-linux"),
        pytest.param({"python": "3.12"}, "2.21", id="py312"),
        pytest.param({"python": "3.10", "driver": "470.82.01"}, "2.14", id="driver-470"),
        pytest.param({"platform": "windows", "gpu": "8.6"}, "2.10", id="windows-gpu"),
        pytest.param({"gpu": "3.5"}, "2.14", id="kepler-gpu"),
        pytest.param({"platform": "macos", "driver": "550.54.14"}, None, id="macos-driver"),
        pytest.param({"python": "3.14", "platform": "linux"}, None, id="py314"),
    ],
)
def test_newest_fit(query: dict[str, str], newest: Optional[str]) -> None:
    assert _newest(**query) == newest


def test_python_312_never_gets_a_line_without_cp312_wheels() -> None:
    found = verdicts(MATRIX, make_target(MATRIX, python="3.12", platform="linux"))
    fitting = [v.line.line for v in found if v.fits]
    assert fitting == [e.line for e in MATRIX.lines if "3.12" in e.python["linux-x86_64"]]
    assert "2.15" not in fitting
    best = newest_fit(MATRIX, make_target(MATRIX, python="3.12", platform="linux"))
    assert best is not None and best.line is MATRIX.releases[0]
    assert "no wheel for Python 3.12 on linux-x86_64" in _reasons("2.15", python="3.12")


def test_old_driver_gets_the_last_cuda_11_build() -> None:
    assert line("2.14").cuda == "11.8"
    assert "525.60.13" in _reasons("2.15", python="3.10", driver="470.82.01")
    assert _reasons("2.14", python="3.10", driver="470.82.01") == ""


def test_native_windows_gpu_ends_with_2_10() -> None:
    for entry in MATRIX.lines:
        if entry.key >= (2, 11):
            assert "WSL2" in _reasons(entry.line, platform="windows", gpu="8.6"), entry.line
    assert line("2.10").windows_native_gpu


@pytest.mark.parametrize("plat", ["macos-x86_64", "macos-arm64"])
def test_no_cuda_on_macos(plat: str) -> None:
    found = verdicts(MATRIX, make_target(MATRIX, platform=plat, driver="550.54.14"))
    assert not any(v.fits for v in found)
    assert all("macOS" in "; ".join(v.reasons) for v in found)


def test_kepler_lost_with_2_15() -> None:
    assert "no GPU code for compute capability 3.5" in _reasons("2.15", gpu="3.5")
    assert gpu_code(_caps(line("2.14")), "3.5") == SASS


def test_gpu_code_of_known_lines() -> None:
    caps = _caps(line("2.21"))
    assert "sm_80" in caps.sass and "sm_86" not in caps.sass
    assert gpu_code(caps, "8.6") == SASS
    # compute_90 in the build list is machine code as well as PTX ...
    assert gpu_code(_caps(line("2.16")), "9.0") == SASS
    # ... while a newer major only has the PTX to JIT.
    assert gpu_code(_caps(line("2.16")), "10.0") == PTX
    assert gpu_code(_caps(line("2.15")), "9.0") == PTX


@pytest.mark.parametrize(
    ("name", "linux", "rule"),
    [
        pytest.param("2.0", "410.48", "shipped with", id="cuda-10.0-no-minor-compat"),
        pytest.param("1.15", "410.48", "shipped with", id="tf1-cuda-10.0"),
        pytest.param("2.3", "418.39", "shipped with", id="cuda-10.1"),
        pytest.param("2.4", "450.51.05", "shipped with", id="cuda-11.0-toolkit-driver"),
        pytest.param("2.11", "450.80.02", "minor version", id="cuda-11.2-family-floor"),
        pytest.param("2.14", "450.80.02", "minor version", id="cuda-11.8-family-floor"),
        pytest.param("2.16", "525.60.13", "minor version", id="cuda-12-family-floor"),
    ],
)
def test_driver_floor(name: str, linux: str, rule: str) -> None:
    floor = driver_floor(MATRIX, line(name), "linux")
    assert floor is not None and (floor.version, rule in floor.rule) == (linux, True)


def test_every_cuda_11_2_line_needs_the_11_x_floor() -> None:
    lines_112 = [e for e in MATRIX.lines if e.cuda == "11.2"]
    assert lines_112
    for entry in lines_112:
        floor = driver_floor(MATRIX, entry, "linux")
        assert floor is not None and floor.version == "450.80.02", entry.line


def test_ptx_needs_the_toolkit_driver() -> None:
    floor = ptx_driver_floor(MATRIX, line("2.16"), "linux")
    assert floor is not None and floor.version == "545.23.06"  # CUDA 12.3 GA driver
    # A driver between the family floor and the toolkit's runs the SASS but not the PTX.
    reasons = _reasons("2.16", driver="530.30.02", gpu="10.0")
    assert "PTX JIT, which needs driver >= 545.23.06" in reasons
    assert _reasons("2.16", driver="530.30.02", gpu="9.0") == ""


@pytest.mark.parametrize(
    ("name", "query", "requirement"),
    [
        pytest.param(
            "2.21",
            {"platform": "linux", "driver": "550.54.14"},
            "tensorflow[and-cuda]==2.21.0",
            id="and-cuda",
        ),
        pytest.param(
            "2.0", {"platform": "linux", "gpu": "7.0"}, "tensorflow-gpu==2.0.4", id="tf-gpu"
        ),
        pytest.param("2.21", {}, "tensorflow==2.21.0", id="no-gpu"),
        pytest.param(
            "2.21", {"platform": "macos", "python": "3.12"}, "tensorflow==2.21.0", id="mac"
        ),
        pytest.param("2.10", {"platform": "windows", "gpu": "8.6"}, "tensorflow==2.10.1", id="win"),
    ],
)
def test_install_requirement(name: str, query: dict[str, str], requirement: str) -> None:
    assert install_requirement(line(name), make_target(MATRIX, **query)) == requirement


# --- make_target -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "option"),
    [
        pytest.param({"python": "abc"}, "--python-version abc", id="python"),
        pytest.param({"python": "2.7"}, "--python-version 2.7", id="python-2"),
        pytest.param({"driver": "x"}, "--driver x", id="driver"),
        pytest.param({"cuda": "eleven"}, "--cuda eleven", id="cuda"),
        pytest.param({"platform": "beos"}, "--platform beos", id="platform"),
        pytest.param({"gpu": "Voodoo 5"}, "--gpu Voodoo 5", id="gpu-name"),
    ],
)
def test_make_target_rejects_bad_input(query: dict[str, str], option: str) -> None:
    with pytest.raises(TargetError) as info:
        make_target(MATRIX, **query)
    assert str(info.value).startswith(f"{option}: ")
    assert "\n" not in str(info.value)


def test_make_target_normalises() -> None:
    target = make_target(
        MATRIX,
        python="3.11.7",
        platform="Linux",
        cuda=" 12.3 ",
        driver="550.54.14 ",
        gpu="RTX 3090",
    )
    assert target == Target("3.11", "linux-x86_64", "12.3", "550.54.14", "8.6")
    assert make_target(MATRIX, gpu="Tesla K80").gpu == "3.7"
    assert make_target(MATRIX, gpu=" 8.9 ").gpu == "8.9"
    assert not make_target(MATRIX, python="3.12").wants_gpu


@pytest.mark.parametrize(
    ("value", "key"),
    [
        pytest.param("linux", "linux-x86_64", id="linux"),
        pytest.param("win", "windows-x86_64", id="win"),
        pytest.param("darwin", "macos-arm64", id="darwin"),
        pytest.param("Linux_x86_64", "linux-x86_64", id="underscores"),
        pytest.param("linux-arm64", "linux-aarch64", id="arm64-alias"),
        pytest.param("beos", None, id="unknown"),
    ],
)
def test_platform_key(value: str, key: Optional[str]) -> None:
    assert platform_key(value) == key


def test_platform_of_and_python_minor() -> None:
    assert platform_of("Linux", "x86_64") == "linux-x86_64"
    assert platform_of("Darwin", "arm64") == "macos-arm64"
    assert platform_of("Windows", "AMD64") == "windows-x86_64"
    assert platform_of("Windows", "ARM64") is None
    assert platform_of("FreeBSD", "amd64") is None
    assert python_minor("3.12.1") == "3.12"
    assert python_minor("2.7.18") is None


# --- adding a release is data only -------------------------------------------------------------


def _next_line(matrix: Matrix) -> str:
    """The line after the matrix's newest, ``2.23`` after ``2.22``."""
    major, minor = matrix.lines[0].key
    return f"{major}.{minor + 1}"


#: The fixture with one more final release on top, as the next release will make it.
GROWN = parse_matrix(
    with_release(_FIXTURE_TEXT, f"{_next_line(MATRIX)}.0"),
    "grown.yaml",
)


def test_a_new_release_loads_and_is_the_newest_fit() -> None:
    new = GROWN.lines[0]
    assert new.line == _next_line(MATRIX) and not new.pre_release
    assert GROWN.newest_release is new and GROWN.releases == GROWN.lines
    for target in (Target(), Target(new.python["linux-x86_64"][-1], "linux-x86_64")):
        best = newest_fit(GROWN, target)
        assert best is not None and best.line is new, target


@settings(max_examples=100, deadline=None)
@given(targets())
def test_a_new_release_keeps_every_verdict_invariant(target: Target) -> None:
    assert_verdicts_agree(GROWN, target)


def test_a_pre_release_line_is_listed_but_never_the_newest_fit() -> None:
    name = _next_line(MATRIX)
    grown = parse_matrix(with_release(_FIXTURE_TEXT, f"{name}.0rc0"), "pre.yaml")
    pre, newest = grown.lines[0], grown.lines[1]
    assert (pre.line, pre.pre_release, newest.pre_release) == (name, True, False)
    assert grown.newest_release is newest and pre not in grown.releases
    # The line fits (it is listed as such), yet only a request for pre-releases gets it.
    assert verdicts(grown, Target())[0].fits
    best = newest_fit(grown, Target())
    assert best is not None and best.line is newest
    asked = newest_fit(grown, Target(), pre=True)
    assert asked is not None and asked.line is pre
    assert install_requirement(pre, Target()) == f"tensorflow=={name}.0rc0"


def test_a_pre_release_below_a_final_line_is_refused() -> None:
    text = with_release(_FIXTURE_TEXT, f"{_next_line(MATRIX)}.0")
    older = GROWN.lines[1]
    broken = text.replace(
        f'latest_patch: "{older.latest_patch}"', f'latest_patch: "{older.latest_patch}rc1"', 1
    )
    message = parse_error(broken)
    assert f"tensorflow[{older.line}].latest_patch: {older.latest_patch}rc1 is a pre-release" in (
        message
    )


def pre_release_faults(lines: Sequence[TFLine]) -> list[str]:
    """Pre-release lines below a final line (recommendations skip them only at the top), and
    pre-releases of a patch other than ``.0`` (a line without a final has no ``X.Y.0`` yet)."""
    pre = [entry for entry in lines if entry.pre_release]
    faults = [] if tuple(lines[: len(pre)]) == tuple(pre) else ["a pre-release below a final"]
    return faults + [
        f"{entry.line}: {entry.latest_patch}"
        for entry in pre
        if not re.fullmatch(rf"{re.escape(entry.line)}\.0(a|b|rc)\d+", entry.latest_patch)
    ]


def test_the_shipped_pre_release_lines_are_the_newest() -> None:
    assert pre_release_faults(SHIPPED.lines) == []
    # Planted: a pre-release line below the newest final one, and one of a later patch.
    below = dataclasses.replace(
        SHIPPED.releases[1], latest_patch=f"{SHIPPED.releases[1].line}.0rc0"
    )
    assert pre_release_faults((SHIPPED.releases[0], below)) == ["a pre-release below a final"]
    patch = dataclasses.replace(below, latest_patch=f"{below.line}.1rc0")
    assert pre_release_faults((patch, *SHIPPED.releases)) == [f"{below.line}: {below.line}.1rc0"]


# --- facts of particular lines of the shipped matrix ------------------------------------------


def test_2_22_python_comes_from_its_wheel_tags_not_its_classifiers() -> None:
    # The 2.22.0rc0 wheels exist for CPython 3.10-3.14 though its classifiers stop at 3.13.
    entry = line("2.22", SHIPPED)
    for plat in ("linux-x86_64", "linux-aarch64", "macos-arm64", "windows-x86_64"):
        assert entry.python[plat] == ("3.10", "3.11", "3.12", "3.13", "3.14"), plat
    assert entry.sources_of("python") == ("pypi-files",)


@pytest.mark.parametrize("name", ["2.21", "2.22"])
def test_xla_on_compute_capability_12_is_a_known_failure(name: str) -> None:
    entry = line(name, SHIPPED)
    assert "sm_120" in entry.known_gpu_failures["12.0"]
    assert entry.sources_of("known_gpu_failures") == ("tf-issue-111958",)
    target = make_target(SHIPPED, gpu="GeForce RTX 5090")
    assert "fails on compute capability 12.0" in _reasons(name, SHIPPED, gpu="12.0")
    best = newest_fit(SHIPPED, target)
    assert best is None or "12.0" not in best.line.known_gpu_failures


@pytest.mark.parametrize(
    ("release", "has_cp35", "source"),
    [
        # TensorFlow's pip install guide of the time lists cp35 wheels of 2.2.0 and 2.3.0 for
        # Linux, macOS and Windows (tensorflow/docs commits 7efce4f and 71969ca); the lines'
        # last patches, 2.2.3 and 2.3.4, are for 3.6-3.8.
        pytest.param("2.2.0", True, "tf-pip-guide-2.2-wheels", id="2.2.0"),
        pytest.param("2.3.0", True, "tf-pip-guide-2.3-wheels", id="2.3.0"),
        pytest.param("2.2.3", False, None, id="2.2.3"),
        pytest.param("2.3.4", False, None, id="2.3.4"),
    ],
)
def test_the_first_releases_of_2_2_and_2_3_have_python_3_5_wheels(
    release: str, has_cp35: bool, source: str | None
) -> None:
    pythons = SHIPPED.release_pythons(release)

    assert pythons is not None
    for plat in ("linux-x86_64", "macos-x86_64", "windows-x86_64"):
        assert ("3.5" in pythons[plat]) == has_cp35, plat
        assert "3.8" in pythons[plat]
    if source is not None:
        row = next(r for r in SHIPPED.early_releases if r.release == release)
        assert source in row.source and source in SHIPPED.sources


def test_linux_aarch64_wheels_start_at_2_10_with_aws_build() -> None:
    """TensorFlow's install guide: from 2.10 the Linux aarch64 builds are AWS's
    tensorflow-cpu-aws, which the tensorflow wheel installs there; 2.9 has none."""
    first = min(
        (line for line in SHIPPED.lines if line.pythons_on("linux-aarch64")),
        key=lambda line: line.key,
    )
    assert first.line == "2.10"
    assert first.wrappers["linux-aarch64"] == "tensorflow-cpu-aws"
    assert "tf-pip-guide-aarch64" in first.sources_of("wrappers")
    nine = SHIPPED.line_for("2.9")
    assert nine is not None and nine.pythons_on("linux-aarch64") == ()
    assert "tf-pip-guide-aarch64" in nine.sources_of("python")


def test_an_early_release_answers_with_its_own_wheels_and_a_line_with_the_lines() -> None:
    early = FIXTURE_MATRIX.release_pythons("1.10.0")
    assert early is not None and early["windows-x86_64"] == ("3.5", "3.6")
    assert "2.7" in early["linux-x86_64"]
    latest = FIXTURE_MATRIX.line_for("2.16")
    assert latest is not None
    assert FIXTURE_MATRIX.release_pythons(latest.latest_patch) == latest.python
    # Another patch of the line without a row of its own has the line's wheels.
    assert FIXTURE_MATRIX.release_pythons("2.16.0") == latest.python
    # Neither an early row nor a line: unknown, never guessed from a neighbour.
    assert FIXTURE_MATRIX.release_pythons("1.10.1") is None


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        pytest.param(
            '  - release: "1.2.0"\n    python: {linux-x86_64: ["3.6"]}\n    source: pypi-files\n'
            '  - release: "1.1.0"\n    python: {linux-x86_64: ["3.6"]}\n    source: pypi-files\n',
            "early_releases[1.1.0].release: rows must be sorted oldest first",
            id="unsorted",
        ),
        pytest.param(
            '  - release: "1.2.0"\n    python: {linux-x86_64: ["3.6", "3.5"]}\n'
            "    source: pypi-files\n",
            "early_releases[1.2.0].python.linux-x86_64: versions must be sorted",
            id="unsorted-pythons",
        ),
        pytest.param(
            '  - release: "1.2"\n    python: {linux-x86_64: ["3.6"]}\n    source: pypi-files\n',
            "early_releases[0].release: '1.2' is not a valid release X.Y.Z",
            id="not-a-release",
        ),
        pytest.param(
            '  - release: "1.2.0"\n    python: {solaris: ["3.6"]}\n    source: pypi-files\n',
            "early_releases[1.2.0].python.solaris: unknown field",
            id="unknown-platform",
        ),
        pytest.param(
            '  - release: "1.2.0"\n    python: {linux-x86_64: ["3.6"]}\n    source: nowhere\n',
            "early_releases[1.2.0].source",
            id="unknown-source",
        ),
        pytest.param(
            '  - release: "1.2.0"\n    python: {linux-x86_64: ["3.6"]}\n    source: pypi-files\n'
            '    cuda: {version: "8", source: pypi-files}\n',
            "early_releases[1.2.0].cuda.version: '8' is not a valid X.Y",
            id="cuda-not-x.y",
        ),
        pytest.param(
            '  - release: "1.2.0"\n    python: {linux-x86_64: ["3.6"]}\n    source: pypi-files\n'
            '    cuda: {version: "8.0", cudnn: "v5", source: pypi-files}\n',
            "early_releases[1.2.0].cuda.cudnn: 'v5' is not a valid X or X.Y",
            id="cudnn-not-a-version",
        ),
        pytest.param(
            '  - release: "1.2.0"\n    python: {linux-x86_64: ["3.6"]}\n    source: pypi-files\n'
            "    gpu_package: {macos: tensorflow, source: pypi-files}\n",
            "early_releases[1.2.0].gpu_package.macos: unknown field",
            id="gpu-package-os-without-cuda-builds",
        ),
        pytest.param(
            '  - release: "1.2.0"\n    python: {linux-x86_64: ["3.6"]}\n    source: pypi-files\n'
            "    gpu_package: {source: pypi-files}\n",
            "early_releases[1.2.0].gpu_package: names no OS",
            id="gpu-package-naming-nothing",
        ),
        pytest.param(
            '  - release: "1.2.0"\n    python: {linux-x86_64: ["3.6"]}\n    source: pypi-files\n'
            "    gpu_package: {linux: tensorflow}\n",
            "early_releases[1.2.0].gpu_package.source: missing field",
            id="gpu-package-unsourced",
        ),
    ],
)
def test_a_bad_early_release_row_is_named(rows: str, message: str) -> None:
    text = FIXTURE_MATRIX_PATH.read_text(encoding="utf-8")
    text = text[: text.index("early_releases:")] + "early_releases:\n" + rows
    assert message in parse_error(text)


def test_an_early_release_states_the_cuda_of_its_gpu_build() -> None:
    text = FIXTURE_MATRIX_PATH.read_text(encoding="utf-8")
    rows = (
        '  - release: "1.12.0"\n    python: {linux-x86_64: ["3.6"]}\n    source: pypi-files\n'
        '    cuda: {version: "9.0", cudnn: "7", source: pypi-files}\n'
        '  - release: "1.12.2"\n    python: {linux-x86_64: ["3.6"]}\n    source: pypi-files\n'
    )
    matrix = parse_matrix(text[: text.index("early_releases:")] + "early_releases:\n" + rows)
    # A patch without its own statement takes its line's; a line the rows do not state, none.
    assert matrix.early_cuda("1.12.2") == "9.0" and matrix.early_cuda("1.12") == "9.0"
    assert matrix.early_cuda("1.11.0") is None
    assert matrix.early_cudnn("1.12.2") == "7" and matrix.early_cudnn("1.11") is None
    builds = matrix.builds_with_cuda()
    assert builds[0] == ("1.12.0", "9.0")
    assert [c for _, c in builds[1:]] == [x.cuda for x in reversed(matrix.releases) if x.cuda]


@pytest.mark.parametrize(
    ("version", "os_name", "dist"),
    [
        # 1.15.0's own row: its tensorflow wheel was the GPU build on Linux and Windows.
        pytest.param("1.15.0", "linux", "tensorflow", id="release-row-linux"),
        pytest.param("1.15.0", "windows", "tensorflow", id="release-row-windows"),
        # An OS the row leaves out, and the line's other patches: the line's.
        pytest.param("1.15.0", "macos", None, id="release-row-silent-on-os"),
        pytest.param("1.15.5", "linux", "tensorflow-gpu", id="line-latest-patch"),
        pytest.param("2.0.0", "linux", "tensorflow-gpu", id="another-line"),
    ],
)
def test_a_release_row_overrides_its_lines_gpu_package(
    version: str, os_name: str, dist: str | None
) -> None:
    assert FIXTURE_MATRIX.gpu_distribution(version, os_name) == dist
    row = next(r for r in FIXTURE_MATRIX.early_releases if r.release == "1.15.0")
    assert row.gpu_package_sources == ("tf-1.15.0-release-notes",)


def test_the_shipped_matrix_names_1_15_0s_gpu_build_from_its_release_notes() -> None:
    assert SHIPPED.gpu_distribution("1.15.0") == "tensorflow"
    assert SHIPPED.gpu_distribution("1.15.2") == "tensorflow-gpu"
    row = next(r for r in SHIPPED.early_releases if r.release == "1.15.0")
    (source,) = row.gpu_package_sources
    assert SHIPPED.sources[source].url.endswith("/releases/tag/v1.15.0")


def test_a_line_has_wheels_for_a_python_on_some_platform() -> None:
    line = FIXTURE_MATRIX.line_for("2.1")
    assert line is not None
    assert line.has_wheels_for("3.7.9") and line.has_wheels_for("3.6")
    assert not line.has_wheels_for("3.8")
    assert line.has_wheels_for(None) and line.has_wheels_for("")  # unknown: taken as served


def test_a_line_has_wheels_for_a_python_on_a_platform_family() -> None:
    line = FIXTURE_MATRIX.line_for("2.1")
    assert line is not None
    assert line.has_wheels_for("3.7", "macos-") and line.has_wheels_for(None, "macos-x86_64")
    assert not line.has_wheels_for("3.8", "macos-")
    assert not line.has_wheels_for(None, "macos-arm64")  # no wheel there for any Python
    assert not line.has_wheels_for("3.7", "freebsd-")  # a platform the line has no key for


def test_lines_are_chosen_by_the_range_they_declare_on_a_pinned_package() -> None:
    chosen = FIXTURE_MATRIX.lines_pinning("protobuf", lambda spec: "<3.20" in spec)
    assert [x.line for x in chosen] == ["2.11", "2.10", "2.9", "2.8", "2.7", "2.6"]
    assert FIXTURE_MATRIX.lines_pinning("absl-py", lambda spec: True) == ()  # not pinned


def test_lines_are_chosen_by_the_range_their_and_cuda_extra_declares() -> None:
    def newer(pin: str) -> bool:
        return ranges_meet(pin, ">=12.6")

    nvcc = "nvidia-cuda-nvcc-cu12"
    chosen = FIXTURE_MATRIX.lines_pinning(nvcc, newer)
    assert [x.line for x in chosen] == ["2.21", "2.20"]  # 2.18 and 2.19 pin ==12.5.82
    every = [x.line for x in FIXTURE_MATRIX.lines if x.declared(nvcc)]
    assert [x.line for x in FIXTURE_MATRIX.lines_pinning(nvcc, lambda p: True)] == every
    assert "2.13" not in every  # no and-cuda extra: the line pins nothing
    assert FIXTURE_MATRIX.line_for("2.19").declared(nvcc) == "==12.5.82"  # type: ignore[union-attr]


def test_a_lines_pythons_on_a_platform_are_its_wheels_oldest_first() -> None:
    for line in FIXTURE_MATRIX.lines:
        every = line.pythons_on()
        assert list(every) == sorted(
            {p for ps in line.python.values() for p in ps}, key=version_key
        )
        for key, pythons in line.python.items():
            assert set(line.pythons_on(key)) == set(pythons)
            assert all(line.has_wheels_for(p, key) for p in line.pythons_on(key))


def test_the_tolerated_h5py_range_stops_at_the_oldest_declared_floor() -> None:
    """h5py 2 is tolerated under the HDF5 loader of 2.5-2.15, but not below 2.9, the oldest
    floor any TensorFlow 2 wheel declares: nothing vouches for older releases."""
    from tfdoctor.matrix import load_matrix, spec_contains

    matrix = load_matrix()
    ranges = [
        line.tolerated_ranges["h5py"] for line in matrix.lines if "h5py" in line.tolerated_ranges
    ]
    assert ranges
    assert all(spec_contains("2.10.0", r) and not spec_contains("2.8.0", r) for r in ranges)
    assert all(not spec_contains("3.1.0", r) for r in ranges)


@pytest.mark.parametrize(
    ("spec", "release", "admits"),
    [
        (">=3.20.3,<6", "6.30", True),
        (">=6.30", "6.30", False),
        (">6.31,<7", "6.30", False),
        ("==5.29.*", "6.30", True),
        ("==6.31.*", "6.30", False),
        ("~=1.26", "2.0", True),
        ("<2", "2.0", True),
        ("not a range", "2.0", True),
    ],
)
def test_a_range_admits_an_older_release_only_when_every_floor_is_below(
    spec: str, release: str, admits: bool
) -> None:
    """One reading of a declared range's floors, for every fix that offers to step back."""
    assert admits_below(spec, release) is admits


@pytest.mark.parametrize(
    ("version", "spec", "above"),
    [
        ("2.0.0", "<2", True),
        ("1.26.4", "<2", False),
        ("2.0.0", "<=1.26.4,>=1.23", True),
        ("4.25.3", "==4.25.3", False),
        ("4.25.4", "==4.25.3", True),
        ("3.9.1", "==3.9.*", False),  # a wildcard has no single release to be above
        # PEP 440's compatible release: ~=1.19.2 is >=1.19.2, ==1.19.*, so below 1.20.
        ("2.0.2", "~=1.19.2", True),
        ("1.20.0", "~=1.19.2", True),
        ("1.19.5", "~=1.19.2", False),
        ("1.18.5", "~=1.19.2", False),  # below the floor, not above the range
        ("2.1.0", "~=2.0", False),
        ("2.0.0", ">=1.23", False),
        ("2.0.0", "not a range", False),
    ],
)
def test_a_version_is_above_a_range_only_past_an_upper_bound(
    version: str, spec: str, above: bool
) -> None:
    """Past ``<X``, ``<=X``, an exact ``==X`` or the prefix of ``~=X.Y``: a fix steps such a
    version down, never up."""
    assert above_range(version, spec) is above


@pytest.mark.parametrize(
    ("spec", "pinned"),
    [("==3.7.0", "3.7.0"), ("===1.0.post1", "1.0.post1"), ("==2.15.*", None), (">=3.7", None)],
)
def test_an_exact_pin_names_one_release_and_a_wildcard_is_a_range(
    spec: str, pinned: Optional[str]
) -> None:
    assert exact_pin(spec) == pinned


def test_the_newest_line_with_wheels_is_the_newest_final_line_serving_that_python() -> None:
    every = FIXTURE_MATRIX.newest_with_wheels("3.12")
    assert every is not None and every.has_wheels_for("3.12")
    newer = [x for x in FIXTURE_MATRIX.releases if version_key(x.line) > version_key(every.line)]
    assert not any(x.has_wheels_for("3.12") for x in newer)
    intel_mac = FIXTURE_MATRIX.newest_with_wheels("3.11", "macos-x86_64")
    assert intel_mac is not None and intel_mac.has_wheels_for("3.11", "macos-x86_64")
    assert FIXTURE_MATRIX.newest_with_wheels("2.7") is None


def _with_patch_rows(*rows: tuple[str, dict[str, tuple[str, ...]]]) -> Matrix:
    """The fixture matrix with ``rows`` as its early releases (release, Pythons by platform)."""
    early = tuple(EarlyRelease(r, p, ("planted",)) for r, p in rows)
    return dataclasses.replace(FIXTURE_MATRIX, early_releases=early)


def test_the_newest_release_for_a_python_is_one_whose_wheels_the_matrix_names() -> None:
    line = FIXTURE_MATRIX.line_for("1.15")
    assert line is not None and "2.7" not in line.pythons_on()
    matrix = _with_patch_rows(
        ("1.15.0", {"linux-x86_64": ("2.7", "3.7"), "windows-x86_64": ("3.7",)}),
        ("1.15.2", {"linux-x86_64": ("3.5", "3.7")}),
    )
    # An earlier patch's own row names the Python the latest patch lacks.
    assert matrix.newest_release_with_wheels("2.7", "", "1.15") == "1.15.0"
    assert matrix.newest_release_with_wheels("2.7.18", "linux-", "1") == "1.15.0"
    assert matrix.newest_release_with_wheels("3.5", "", "1.15") == "1.15.2"
    # The latest patch stands for its line's Pythons.
    newest = line.pythons_on()[-1]
    assert matrix.newest_release_with_wheels(newest, "", "1.15") == line.latest_patch
    # No row names the Python for that platform, or for that line: none is vouched for.
    assert matrix.newest_release_with_wheels("2.7", "windows-", "1.15") is None
    assert matrix.newest_release_with_wheels("2.7", "", "1.14") is None
    assert _with_patch_rows().newest_release_with_wheels("2.7", "", "1.15") is None


def test_the_last_tensorflow_1_line_and_the_one_after_it_are_read_from_the_lines() -> None:
    m = SHIPPED
    assert m.last_tf1_line is not None and m.last_tf1_line.line == "1.15"
    assert m.line_after_tf1 is not None and m.line_after_tf1.line == "2.0"
    # A matrix without a 1.x line has neither.
    only_tf2 = dataclasses.replace(m, lines=tuple(x for x in m.lines if x.key[:1] != (1,)))
    assert only_tf2.last_tf1_line is None and only_tf2.line_after_tf1 is None
