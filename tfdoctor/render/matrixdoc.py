"""``docs/compatibility.md``: the matrix as a document, generated so it never drifts.

``python scripts/gen_compatibility_doc.py`` rewrites the file; a test fails when it is stale.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Optional

from tfdoctor import matrix_schema as schema
from tfdoctor.compat import driver_floor, ptx_driver_floor
from tfdoctor.matrix import PLATFORMS, CompanionRelease, Companions, Matrix, TFLine, dotted_line
from tfdoctor.render.matrixout import gpu_code_summary

_INTRO = """\
# TensorFlow compatibility

<!-- Generated from compat_matrix.yaml by scripts/gen_compatibility_doc.py: edit the YAML,
     then regenerate. A test fails when this file is stale. -->

What each TensorFlow release line needs and supports, from `compat_matrix.yaml` (shipped
inside the package). `tfdoctor check` judges a machine against it, `tfdoctor matrix` queries
it, and every fact in it names its source.

## Where the facts come from

The wheels themselves win over documentation: Python versions and platforms from the wheel
file names on PyPI; `Requires-Python` and `Requires-Dist` (numpy, protobuf, keras, ml-dtypes,
the `and-cuda` extra) from each wheel's METADATA; CUDA, cuDNN and the GPU architectures from
`tensorflow/python/platform/build_info.py` inside the wheels (from 2.22 it records neither: CUDA
and cuDNN are then the floors of the `and-cuda` extra, the architectures the `.nv_fatbin`
headers of the wheel's libraries); thin wrappers from the METADATA of each platform's own wheel. TensorFlow's tested build configurations, release notes and
release build scripts fill in what the wheels do not record; NVIDIA's CUDA release notes
(Table 3) and compatibility guide give the drivers. Where the documentation disagrees with the
wheels, the entry's notes say what the documentation claims.

`python scripts/refresh_matrix.py check` compares the matrix with PyPI (it needs the network;
nothing in tfdoctor does at run time). `python scripts/refresh_matrix.py draft --lines X.Y`
prints the entry of a new release line as YAML, each fact with its source and notes for what
the wheels could not tell (`dump` prints the raw wheel facts); with `--pre` a line that has no
final release yet is read at its newest pre-release.

## Adding a release, a CUDA version or a GPU

Each is a change of data, reviewed against its sources; no Python file and no test changes
(the tests state invariants of the shipped data, and check logic runs on a frozen copy of the
matrix, `tests/data/matrix/fixture.yaml`).

- **A TensorFlow release line.** `python scripts/refresh_matrix.py draft --lines X.Y` (`--pre`
  before its first final) prints the entry with a source per fact and notes for what the
  wheels could not tell; a person reviews the sources, adds the facts kept "by hand" below
  (reported GPU failures, the macOS plugin), pastes the entry at the top of
  `compat_matrix.yaml` (at the repository root; a build copies it into the package) and runs
  `python scripts/refresh_matrix.py check` and `python scripts/gen_compatibility_doc.py`.
  Which requirements `import tensorflow` imports as it starts, and which only when a feature
  is used, is `tfdoctor/data/tf_imports.yaml` (measured on one release, each row sourced):
  a release that imports differently changes its rows.
- **A CUDA version.** Its driver rows in `compat_matrix.yaml` (`cuda_toolkits`, and
  `cuda_families` for a new major, from NVIDIA's release notes); for a new major, its soname
  row in `tfdoctor/data/cuda.yaml` (`sonames`, from the release notes' component versions)
  and, where its wheels move, the `wheels` rows there.
- **A GPU.** A row in `tfdoctor/data/gpus.yaml`: its name and compute capability from
  NVIDIA's CUDA GPUs page, and its dense peaks per precision from its data sheet.

Every row of those files names its sources, and each file is validated when it is read: an
unknown key, a missing source or an unsorted row stops with one line naming the file, the line
and the field.

## The rules the checks apply

- **Driver floor.** A CUDA 11.1+ or 12.x build runs on any driver at or above its family's
  floor (CUDA minor version compatibility; the floors are in the table below). CUDA 10.x and
  11.0 builds need the driver their toolkit shipped with.
- **PTX JIT.** A GPU the wheel has no machine code for can still run PTX, compiled by the
  driver at first start (minutes; cached in `~/.nv/ComputeCache`). That needs a driver at least
  as new as the build's own CUDA toolkit, even where minor version compatibility lowers the
  floor for machine code.
- **Machine code.** `sm_XY` machine code runs on GPUs of compute capability X.Z with Z >= Y;
  `compute_XY` PTX runs on any capability >= X.Y. In TensorFlow's own build lists (build_info's
  `cuda_compute_capabilities`) `sm_XY` means machine code only and `compute_XY` machine code
  *and* PTX (TensorFlow's `.bazelrc`), so the matrix lists `sm_90` for a wheel built with
  `compute_90`.
- **CUDA libraries.** From CUDA 11.1 on the libraries carry only the major version in their
  names (`libcudart.so.12`), so any 12.x installation serves a 12.x build; before, the minor
  version too (`libcudart.so.10.1`; CUDA 11.0 still shipped `libcusolver.so.10`). cuDNN must be the build's major version and at least its
  minor version.

## Using another matrix

`tfdoctor check --matrix FILE`, `tfdoctor matrix --matrix FILE`, or the `TFDOCTOR_MATRIX`
environment variable (the option wins). A malformed file stops the doctor with exit code 3
and one line naming the file, the line and the field:
`matrix.yaml:120: tensorflow[2.16].cuda: '12.x' is not a valid CUDA version (X.Y)`.

## The schema

Top level: `schema_version` (1), `sources` (id, title, URL; `{version}` in a URL is the
line's latest patch), `cuda_toolkits` (CUDA X.Y -> the driver it shipped with, oldest first),
`cuda_families` (major -> minor version compatibility floor), `tensorflow` (one entry per
release line, newest first) and, optionally, `early_releases` (releases older than every line, and
patches whose wheels differ from their line's latest patch, oldest first: `release`, `python`
per platform as their wheel files on PyPI are tagged, `source`; optionally `tf_trt`, `cuda`:
the CUDA release and cuDNN of the GPU build, and `gpu_package`: the GPU build's distribution per
OS where the release was packaged otherwise than its line, each with their own source). Versions are quoted strings. The keys, whether each is required,
needs a source and how it is kept up to date are specified once, in `tfdoctor/matrix_schema.py`,
which both the loader and `scripts/refresh_matrix.py` read (`check` compares the fields kept
by "draft, check" with the wheels). An entry of `tensorflow` has:

"""

#: How a field is kept up to date, as the schema says (``refresh_matrix.py``'s commands).
_KEPT = {
    schema.KEY: "draft",
    schema.CHECKED: "draft, check",
    schema.DRAFTED: "draft",
    schema.HAND: "by hand",
}

_JSON_KEYS = """\
`tfdoctor matrix --json` prints one object per line with the keys `tensorflow`,
`latest_patch`, `pre_release`, `requires_python`, `python` (Linux x86-64), `python_by_platform`,
`glibc_min`, `cuda`, `cudnn`, `cuda_builds`, `min_driver_linux`, `min_driver_windows` (null without native
Windows GPU support), `min_driver_ptx_linux`, `compute_capabilities`, `numpy`, `protobuf`,
`keras`, `tf_keras`, `ml_dtypes`, `and_cuda`, `gpu_package`, `windows_native_gpu`,
`wrappers`, `fits`, `reasons`, `caveats`, `install`, `known_gpu_failures`, `notes` and `sources`
(fact -> URLs).
"""


def _kept(field: schema.Field) -> str:
    """How a field is kept up to date, with the parts kept otherwise."""
    others = [p for p in field.parts if p.refreshed != field.refreshed]
    return "; ".join(
        [_KEPT[field.refreshed], *(f"`{p.name}` {_KEPT[p.refreshed]}" for p in others)]
    )


def _row(cells: Iterable[str]) -> str:
    return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"


def _table(head: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    out = [_row(head), "|" + "---|" * len(head)]
    out.extend(_row(r) for r in rows)
    return out


def _span(versions: Sequence[str]) -> str:
    if not versions:
        return "-"
    return versions[0] if len(versions) == 1 else f"{versions[0]}-{versions[-1]}"


def _code(value: object) -> str:
    return f"`{value}`" if value else "-"


def _floor(matrix: Matrix, line: TFLine, os_name: str) -> str:
    floor = driver_floor(matrix, line, os_name)
    return floor.version if floor else "-"


def _line_details(matrix: Matrix, line: TFLine) -> list[str]:
    out = [f"### TensorFlow {line.line}", ""]
    items = [
        f"Latest patch: {line.latest_patch}; Requires-Python: {_code(line.requires_python)}; "
        f"glibc >= {line.glibc_min or '-'}.",
        "GPU package: "
        + ", ".join(f"{os_name} {_code(dist)}" for os_name, dist in line.gpu_package.items())
        + f"; native Windows GPU: {'yes' if line.windows_native_gpu else 'no'}.",
    ]
    items += [
        f"GPU package of {row.release}: "
        + ", ".join(f"{os_name} {_code(dist)}" for os_name, dist in row.gpu_package.items())
        + "."
        for row in matrix.early_releases
        if row.gpu_package and dotted_line(row.release) == line.line
    ]
    if line.wrappers:
        items.append(
            "Thin wrappers: "
            + ", ".join(f"{plat} -> `{dist}`" for plat, dist in sorted(line.wrappers.items()))
            + "."
        )
    if line.cuda:
        linux = driver_floor(matrix, line, "linux")
        ptx = ptx_driver_floor(matrix, line, "linux")
        items.append(
            f"CUDA {line.cuda}, cuDNN {line.cudnn or '?'}; Linux driver >= "
            f"{linux.version if linux else '?'} ({linux.rule if linux else 'unknown'}), "
            f"PTX JIT >= {ptx.version if ptx else '?'}."
        )
    caps = line.compute_capabilities
    if caps is not None:
        items.append(
            f"GPU code: machine code {', '.join(caps.sass) or 'none'}; "
            f"PTX {', '.join(caps.ptx) or 'none'}."
        )
    pins = [
        f"{name.replace('_', '-')} {_code(getattr(line.pins, name))}"
        for name in ("numpy", "protobuf", "keras", "tf_keras", "ml_dtypes")
        if getattr(line.pins, name)
    ]
    if pins:
        items.append("Pins: " + ", ".join(pins) + ".")
    if line.and_cuda:
        items.append(
            "`[and-cuda]`: "
            + ", ".join(f"`{d}{s}`" for d, s in sorted(line.and_cuda.items()))
            + "."
        )
    out.extend(f"- {item}" for item in items)
    if line.known_gpu_failures:
        out.append("- Known GPU failures:")
        out.extend(
            f"  - compute capability {cc}: {failure}"
            for cc, failure in sorted(line.known_gpu_failures.items())
        )
    if line.notes:
        out.append("- Notes:")
        out.extend(f"  - {note}" for note in line.notes)
    out.append("- Sources:")
    for fact, ids in sorted(line.sources.items()):
        links = ", ".join(
            f"[{matrix.sources[s].id}]({matrix.sources[s].url_for(line)})" for s in ids
        )
        out.append(f"  - {fact}: {links}")
    out.append("")
    return out


_COMPANIONS = """\
## Companions

Packages released for particular TensorFlow releases, from `tfdoctor/companions.yaml`
(shipped inside the package): which of their releases declares which TensorFlow. `check` judges
each installed companion against the installed TensorFlow (its own metadata's range, else this
table's row for its release) and its fix installs the companion's release for that TensorFlow,
moving TensorFlow only where none exists, said so (an end-of-life companion says that first).
`tfdoctor matrix --companion NAME [--tensorflow X.Y]` answers from it; `--companion NAME==X.Y`
the reverse. Each row is copied from the release's own setup.py or wheel metadata, the range it
checks as it is imported, or the project's compatibility table; a row's `release` is a line
(`X.Y`) or, where the patches of a line pin different TensorFlow releases or Pythons, one
release (`X.Y.Z`); `python` is its Requires-Python where known; every row names its `source` (a
row without one is refused as the table is read). Where a release declares a range open to
lines released after it (TFX's libraries: `tensorflow<3`), `tested_with` copies the lines its
project's compatibility table names it tested with (the note column below): the release for a
TensorFlow is one made for its line (`--tensorflow` and the fixes answer so), while the range
still says what pip installs.
tf-keras is paired by the matrix (`pins.tf_keras`). tensorflow-metal declares no TensorFlow:
its rows copy the table of its own project description (its wheels' METADATA, shown on PyPI,
to which Apple's plugin page refers for versions), its Pythons its wheels' tags.

The packages TensorFlow's wheel pins (`tf-keras`, `numpy`, `protobuf`, `keras`, `ml-dtypes`)
are answered from the matrix's `pins` instead: each match is the range a run of lines pins.

`tfdoctor matrix --companion NAME --json` prints one object with the keys `companion`,
`tensorflow`, `release` (what was asked), `pre`, `pinned` (true: answered from the matrix's
`pins`), `end_of_life`, `sources` (the companion's, URLs) and `matches`, each match with `release` (the companion's release line,
or the range a pinned package is held to), `tensorflow`, `python`, `note`, `install`,
`tensorflow_lines` and `sources` (URLs).
"""


def _row_note(row: CompanionRelease) -> str:
    """A companion row's note, with the lines its project's table tests it with and the
    standalone Keras its code works with, if copied."""
    tested = f"tested with TensorFlow {', '.join(row.tested_with)}" if row.tested_with else ""
    keras = f"its code works with keras `{row.keras}`" if row.keras else ""
    return "; ".join(x for x in (row.note, tested, keras) if x)


def _companion_tables(companions: Companions) -> list[str]:
    out = [_COMPANIONS]
    for comp in companions.companions.values():
        out += [f"### {comp.name}", ""]
        if comp.end_of_life:
            out += [f"End of life: {comp.end_of_life}", ""]
        out += _table(
            ("release", "tensorflow", "Python", "note"),
            (
                (r.release, _code(r.tensorflow), _code(r.python or None), _row_note(r))
                for r in reversed(comp.releases)
            ),
        )
        ids = dict.fromkeys((*(s for r in comp.releases for s in r.sources), *comp.sources))
        out += ["", "Sources: " + ", ".join(f"`{s}`" for s in ids), ""]
    if companions.only_tensorflow:
        only = ", ".join(
            f"{name} ({', '.join(f'`{s}`' for s in ids)})"
            for name, ids in companions.only_tensorflow.items()
        )
        out += [
            "Companions whose wheels require only `tensorflow`, by that name "
            "(`only_tensorflow`): beside another TensorFlow distribution (tensorflow-cpu), "
            "where pip would install `tensorflow` as well, a fix installs them without "
            f"dependencies: {only}.",
            "",
        ]
    keras = companions.standalone_keras
    if keras is not None:
        out += [
            "### keras, before TensorFlow required its own",
            "",
            "The standalone keras releases from before TensorFlow's wheel required a keras "
            "(`standalone_keras`; from 2.5 that requirement judges it): `check` warns where the "
            "installed one does not work with the installed TensorFlow, and the fix installs "
            "the release that does.",
            "",
        ]
        out += _table(
            ("release", "tensorflow"),
            ((r.release, _code(r.tensorflow)) for r in reversed(keras.releases)),
        )
        ids = dict.fromkeys((*(s for r in keras.releases for s in r.sources), *keras.sources))
        out += ["", "Sources: " + ", ".join(f"`{s}`" for s in ids), ""]
    if companions.built_on:
        out += [
            "### Libraries built on TensorFlow",
            "",
            "Libraries not released with TensorFlow's lines whose code needs more of TensorFlow "
            "(or of standalone Keras: the note) than their metadata declares (`built_on`): "
            "`check` judges the installed release by its row, as it does a companion's, and the "
            "fix moves TensorFlow, Keras or the library.",
            "",
        ]
    for lib in companions.built_on.values():
        out += [f"#### {lib.name}", ""]
        out += _table(
            ("release", "tensorflow", "Python", "note"),
            (
                (r.release, _code(r.tensorflow), _code(r.python or None), _row_note(r))
                for r in reversed(lib.releases)
            ),
        )
        ids = dict.fromkeys((*(s for r in lib.releases for s in r.sources), *lib.sources))
        out += ["", "Sources: " + ", ".join(f"`{s}`" for s in ids), ""]
    out += ["Companion sources:", ""]
    out += [f"- `{s.id}`: [{s.title}]({s.url})" for s in companions.sources.values()]
    return [*out, ""]


def render_compat_doc(matrix: Matrix, companions: Optional[Companions] = None) -> str:
    """The whole ``docs/compatibility.md`` for ``matrix`` (and the companion table)."""
    out = [_INTRO.rstrip("\n"), ""]
    out += _table(
        ("field", "kept", "meaning"),
        ((f"`{f.name}`", _kept(f), f.doc) for f in schema.LINE_FIELDS),
    )
    out += ["", _JSON_KEYS, "## Release lines", ""]
    out += _table(
        (
            "TF",
            "latest",
            "Python (Linux x86-64)",
            "CUDA",
            "cuDNN",
            "Linux driver",
            "Windows GPU",
            "GPU code",
            "numpy",
            "keras",
        ),
        (
            (
                line.line,
                line.latest_patch,
                _span(line.python["linux-x86_64"]),
                line.cuda or "-",
                line.cudnn or "-",
                _floor(matrix, line, "linux"),
                _floor(matrix, line, "windows") if line.windows_native_gpu else "no",
                gpu_code_summary(line),
                _code(line.pins.numpy),
                _code(line.pins.keras),
            )
            for line in matrix.lines
        ),
    )
    out += ["", "## Python versions per platform", ""]
    out += _table(
        ("TF", *PLATFORMS),
        ((line.line, *(_span(line.python[p]) for p in PLATFORMS)) for line in matrix.lines),
    )
    if matrix.early_releases:
        early = ("linux-x86_64", "macos-x86_64", "windows-x86_64")
        out += [
            "",
            "Releases before the oldest line, and patches whose wheels differ from their "
            "line's latest patch (`early_releases`: the Pythons their wheel files on PyPI are "
            "tagged for):",
            "",
        ]
        out += _table(
            ("release", *early),
            (
                (row.release, *(", ".join(row.python.get(p, ())) or "-" for p in early))
                for row in matrix.early_releases
            ),
        )
    out += ["", "## CUDA toolkits and drivers", ""]
    out += _table(
        ("CUDA", "Linux driver", "Windows driver", "note"),
        (
            (t.cuda, t.min_driver_linux, t.min_driver_windows or "-", t.note)
            for t in matrix.cuda_toolkits
        ),
    )
    out += ["", "Minor version compatibility floors:", ""]
    out += _table(
        ("CUDA", "Linux driver", "Windows driver", "note"),
        (
            (f"{f.major}.x", f.min_driver_linux, f.min_driver_windows or "-", f.note)
            for f in matrix.cuda_families
        ),
    )
    out += ["", "## GPU models", ""]
    used = dict.fromkeys(sid for g in matrix.gpus for sid in g.source)
    cited = ", ".join(f"[{sid}]({matrix.gpu_sources[sid].url})" for sid in used)
    out += [f"From `tfdoctor/data/gpus.yaml` (sources: {cited}).", ""]
    out += _table(
        ("model", "compute capability"),
        ((g.name, g.compute_capability) for g in matrix.gpus),
    )
    out += [""]
    if companions is not None:
        out += _companion_tables(companions)
    out += ["## Release line details", ""]
    for line in matrix.lines:
        out += _line_details(matrix, line)
    out += ["## Sources", ""]
    out += [f"- `{s.id}`: [{s.title}]({s.url})" for s in matrix.sources.values()]
    return "\n".join(out) + "\n"
