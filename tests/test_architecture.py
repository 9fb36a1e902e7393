"""The shape of the program: imports follow the data flow, TensorFlow stays out of the doctor."""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Optional

import pytest

from tfdoctor.checks import CHECKS, Check, cuda, platform

PACKAGE = Path(__file__).resolve().parent.parent / "tfdoctor"

# For each layer: the tfdoctor modules (by prefix) it may import.
ALLOWED = {
    "tfdoctor.defaults": (),
    "tfdoctor.records": (),
    "tfdoctor.cache": (),
    "tfdoctor.bounded": (),
    "tfdoctor.shellword": (),
    "tfdoctor.version_codes": (),
    "tfdoctor.facts": (),
    # The CUDA pip wheels' layout and XLA's CUDA-root flag, shared by probes and services.
    "tfdoctor.cuda_layout": ("tfdoctor.yamldoc",),
    # Findings carry the exit code their severities earn (the codes live with the defaults).
    "tfdoctor.findings": ("tfdoctor.defaults", "tfdoctor.facts"),
    "tfdoctor.redact": ("tfdoctor.facts", "tfdoctor.findings"),
    # Probes keep what a child printed; TensorFlow's log lines are read by the evidence layer's
    # reader, the one explain and the checks share.
    "tfdoctor.probes": (
        "tfdoctor.facts",
        "tfdoctor.cuda_layout",
        "tfdoctor.probes",
        "tfdoctor.evidence",
    ),
    # The smoke test runs a child like the probes do, and reads its events into facts.
    "tfdoctor.smoke": (
        "tfdoctor.defaults",
        "tfdoctor.facts",
        "tfdoctor.gpus",
        "tfdoctor.probes._run",
        "tfdoctor.smoke",
    ),
    # `tfdoctor run`: runs the user's command as the probes run theirs, and hands its output,
    # as log blocks, to an explainer; it judges nothing itself.
    "tfdoctor.runwatch": (
        "tfdoctor.findings",
        "tfdoctor.probes._run",
        "tfdoctor.probes._lifeline",
        "tfdoctor.explain.reader",
    ),
    # Evidence read from text (tracebacks, pip's messages): below the catalogue, observed and
    # inferred kept apart. It may read the facts' own vocabulary (which distributions install
    # TensorFlow), which imports nothing.
    "tfdoctor.evidence": (
        "tfdoctor.records",
        "tfdoctor.evidence",
        "tfdoctor.modules",
        "tfdoctor.facts",
    ),
    # Which distribution installs an import package, and which registers an op
    # (data/modules.yaml): read by the evidence layer (whose frames are whose), explain and
    # the catalogue's fixes (the distribution to install, never the module's name).
    "tfdoctor.modules": ("tfdoctor.yamldoc", "tfdoctor.records"),
    # What standalone Keras releases changed in the API code calls (data/keras_api.yaml):
    # read by explain's Keras readings.
    "tfdoctor.keras_api": ("tfdoctor.yamldoc", "tfdoctor.records"),
    # Which releases of TensorFlow's C library added or removed a function (data/c_api.yaml):
    # read by the catalogue's fixes for a binding that finds one missing.
    "tfdoctor.c_api": ("tfdoctor.yamldoc", "tfdoctor.records"),
    # Log signatures: data validated against the catalogue's cause ids.
    # Patterns may name the evidence layer's words (one home for a message both read).
    "tfdoctor.signatures": ("tfdoctor.causes", "tfdoctor.yamldoc", "tfdoctor.evidence"),
    # `tfdoctor explain`: a log as evidence for the catalogue's causes, fixes from its builders.
    "tfdoctor.explain": (
        "tfdoctor.facts",
        "tfdoctor.findings",
        "tfdoctor.matrix",
        "tfdoctor.compat",
        "tfdoctor.machine",
        "tfdoctor.causes",
        "tfdoctor.signatures",
        "tfdoctor.explain",
        "tfdoctor.evidence",
        # scan's knowledge of API names, asked about the names exceptions mention.
        "tfdoctor.scan",
        # Module -> distribution (data/modules.yaml).
        "tfdoctor.modules",
        # The API changes of standalone Keras releases (data/keras_api.yaml).
        "tfdoctor.keras_api",
        # The system a wheel's platform tag is built for, when a log shows a wheel's name.
        "tfdoctor.wheel_tags",
        # Which companions publish wheels on PyPI (data/wheels.txt): a conda refusal of one
        # is read as a PyPI-only package.
        "tfdoctor.wheel_index",
    ),
    # The YAML data files' shared reader imports nothing from the package.
    "tfdoctor.yamldoc": (),
    # One specification of the matrix's keys, read by the loader and scripts/refresh_matrix.py.
    "tfdoctor.matrix_schema": (),
    # The GPU table (data/gpus.yaml): the matrix's GPU models and the smoke test's peaks.
    "tfdoctor.gpus": ("tfdoctor.yamldoc",),
    # What hosted notebook images ship, and the TPU generations (data/hosted.yaml).
    "tfdoctor.hosted": ("tfdoctor.yamldoc",),
    "tfdoctor.matrix": ("tfdoctor.yamldoc", "tfdoctor.matrix_schema", "tfdoctor.gpus"),
    "tfdoctor.compat": ("tfdoctor.matrix",),
    # The derived view of the facts, computed once; the catalogue of causes builds on it.
    # When `import tensorflow` imports each requirement (data/tf_imports.yaml).
    "tfdoctor.tf_imports": ("tfdoctor.yamldoc",),
    "tfdoctor.machine": (
        "tfdoctor.facts",
        # TensorFlow's log, read into events once for every check.
        "tfdoctor.evidence",
        "tfdoctor.matrix",
        "tfdoctor.compat",
        "tfdoctor.cuda_layout",
        "tfdoctor.tf_imports",
    ),
    # Message sizes and bandwidths in words, for the cluster's findings and the HTML report.
    "tfdoctor.units": (),
    # pip's installation report (`install --dry-run --report`), read by pin --resolve and fix.
    "tfdoctor.pipreport": ("tfdoctor.facts",),
    # Whether a wheel's WHEEL tags fit the interpreter and machine the facts describe.
    "tfdoctor.wheel_tags": ("tfdoctor.facts",),
    # The wheels each companion release publishes on PyPI (data/wheels.txt), read by the
    # catalogue's fixes for pip's refusals.
    "tfdoctor.wheel_index": ("tfdoctor.records",),
    "tfdoctor.causes": (
        "tfdoctor.facts",
        "tfdoctor.findings",
        "tfdoctor.matrix",
        "tfdoctor.compat",
        "tfdoctor.machine",
        "tfdoctor.cuda_layout",
        "tfdoctor.modules",
        "tfdoctor.hosted",
        "tfdoctor.wheel_index",
        "tfdoctor.c_api",
        # How `tfdoctor env`'s output is loaded, for the fixes that tell a user to load it.
        "tfdoctor.env.usage",
        # What a file name in TensorFlow's log says (a Windows DLL's library and versions),
        # read by the evidence layer's one decoder.
        "tfdoctor.evidence",
    ),
    "tfdoctor.checks": (
        "tfdoctor.facts",
        "tfdoctor.findings",
        "tfdoctor.matrix",
        "tfdoctor.compat",
        "tfdoctor.machine",
        "tfdoctor.causes",
        # CUDA release knowledge (which CUDA first knows a GPU), the rule explain shares.
        "tfdoctor.cuda_layout",
        "tfdoctor.checks",
        "tfdoctor.wheel_tags",
        # The events of TensorFlow's log, read by the shared reader.
        "tfdoctor.evidence",
        # choose_policy, the one rule for a mixed-precision policy (no package imports).
        "tfdoctor.gpu_config",
        "tfdoctor.hosted",
        # A failed import that no check's rule names is read with explain's signatures and
        # knowledge: what a log says has one home, whichever entrance the text comes through.
        "tfdoctor.explain",
        "tfdoctor.signatures",
        # The module table's removals and the releases that use what they removed.
        "tfdoctor.modules",
    ),
    # `tfdoctor scan`: code parsed with ast, judged by data rules; findings name the catalogue's
    # causes. It never imports the code it reads, nor the checks, renderers or the CLI.
    "tfdoctor.scan": (
        "tfdoctor.facts",
        "tfdoctor.findings",
        "tfdoctor.matrix",
        "tfdoctor.compat",
        "tfdoctor.machine",
        "tfdoctor.causes",
        "tfdoctor.yamldoc",
        "tfdoctor.scan",
    ),
    # The line scan judges against by default: the installed TensorFlow's, read from metadata.
    "tfdoctor.scan.target": (
        "tfdoctor.facts",
        "tfdoctor.matrix",
        "tfdoctor.machine",
        "tfdoctor.probes.pyenv",
    ),
    "tfdoctor.render": (
        "tfdoctor.defaults",
        # Message sizes and bandwidths, worded as the cluster's findings word them.
        "tfdoctor.units",
        "tfdoctor.matrix",
        # docs/compatibility.md's field table is rendered from the one field specification.
        "tfdoctor.matrix_schema",
        "tfdoctor.compat",
        "tfdoctor.facts",
        "tfdoctor.findings",
        "tfdoctor.redact",
        "tfdoctor.render",
        "tfdoctor.env.settings",
        "tfdoctor.env.usage",
        "tfdoctor.pin",
        "tfdoctor.machine",
        # `tfdoctor upgrade`'s plan record (not its service).
        "tfdoctor.upgrade",
        # `tfdoctor fix`'s plan, dry runs, outcome and snapshots (not its service).
        "tfdoctor.fix",
    ),
    # `tfdoctor env`'s settings, derived from facts; the package's own module imports nothing.
    "tfdoctor.env": (),
    # How each format of `tfdoctor env` is used: read by its renderer and the catalogue's fixes.
    "tfdoctor.env.usage": (),
    "tfdoctor.env.settings": ("tfdoctor.facts", "tfdoctor.cuda_layout", "tfdoctor.machine"),
    # Pins from facts and the matrix (the packages probe lists the installed distributions).
    "tfdoctor.pin": (
        "tfdoctor.facts",
        # The TensorRT wheels' Python cap (data/cuda.yaml).
        "tfdoctor.cuda_layout",
        "tfdoctor.matrix",
        "tfdoctor.compat",
        "tfdoctor.machine",
        "tfdoctor.pin",
        "tfdoctor.pipreport",
    ),
    # The training-script API: imports TensorFlow inside its function, nothing of the package.
    "tfdoctor.gpu_config": (),
    # What every command reads from its user (--python, --facts, --matrix, a target), checked:
    # below the services, which all read it; it imports no service.
    "tfdoctor.inputs": (
        "tfdoctor.facts",
        "tfdoctor.findings",
        "tfdoctor.matrix",
        "tfdoctor.compat",
        "tfdoctor.probes",
    ),
    # Collecting facts and diagnosing them: the probes, the checks, the smoke test.
    "tfdoctor.doctor": (
        "tfdoctor.facts",
        "tfdoctor.findings",
        "tfdoctor.probes",
        "tfdoctor.checks",
        "tfdoctor.machine",
        "tfdoctor.defaults",
        "tfdoctor.inputs",
        "tfdoctor.smoke",
        "tfdoctor.smoke.service",
        "tfdoctor.pin.reqfile",
    ),
    # The services behind the commands, each in its capability's package, above the doctor.
    "tfdoctor.pin.service": (
        "tfdoctor.facts",
        "tfdoctor.matrix",
        "tfdoctor.compat",
        "tfdoctor.machine",
        "tfdoctor.pin",
        "tfdoctor.probes._run",
        "tfdoctor.inputs",
        "tfdoctor.doctor",
    ),
    "tfdoctor.smoke.service": (
        "tfdoctor.facts",
        "tfdoctor.findings",
        "tfdoctor.checks",
        "tfdoctor.smoke",
        "tfdoctor.probes.nvidia",
        "tfdoctor.inputs",
    ),
    "tfdoctor.env.service": (
        "tfdoctor.env.settings",
        "tfdoctor.probes._run",
        "tfdoctor.inputs",
        "tfdoctor.doctor",
    ),
    # `tfdoctor upgrade`: the plan, pure functions of facts, the matrix, the companion table,
    # scan's findings and the target's pins; its service reads the environment, scans, pins.
    "tfdoctor.upgrade": (
        "tfdoctor.facts",
        "tfdoctor.findings",
        "tfdoctor.matrix",
        "tfdoctor.compat",
        "tfdoctor.machine",
        "tfdoctor.causes",
        "tfdoctor.pin",
        "tfdoctor.upgrade",
    ),
    "tfdoctor.upgrade.service": (
        "tfdoctor.facts",
        "tfdoctor.findings",
        "tfdoctor.matrix",
        "tfdoctor.compat",
        "tfdoctor.machine",
        "tfdoctor.pin",
        "tfdoctor.pin.service",
        "tfdoctor.probes._run",
        "tfdoctor.inputs",
        "tfdoctor.doctor",
        "tfdoctor.scan",
        "tfdoctor.upgrade",
    ),
    # `tfdoctor fix`: plans from findings, runs the examined interpreter's pip, keeps the
    # snapshots and journals; it judges again through the checks (verify), and its service
    # wires it to the doctor.
    # The machine view's rule of what counts as one TensorFlow installation, and the readers
    # of declared requirements and version ranges, for the dry runs.
    "tfdoctor.fix": (
        "tfdoctor.facts",
        "tfdoctor.findings",
        "tfdoctor.fix",
        "tfdoctor.machine",
        "tfdoctor.matrix",
        "tfdoctor.pipreport",
    ),
    "tfdoctor.fix.verify": (
        "tfdoctor.facts",
        "tfdoctor.findings",
        "tfdoctor.fix",
        "tfdoctor.checks",
        "tfdoctor.matrix",
        "tfdoctor.probes.pyenv",
    ),
    "tfdoctor.fix.service": (
        "tfdoctor.defaults",
        "tfdoctor.facts",
        "tfdoctor.findings",
        "tfdoctor.fix",
        "tfdoctor.fix.verify",
        "tfdoctor.inputs",
        "tfdoctor.doctor",
    ),
    "tfdoctor.query": ("tfdoctor.facts", "tfdoctor.matrix", "tfdoctor.compat", "tfdoctor.inputs"),
    # `tfdoctor bundle`: redacts, caps and archives what the command gathered; runs pip as
    # `tfdoctor fix` runs it.
    "tfdoctor.bundle": (
        "tfdoctor.facts",
        "tfdoctor.records",
        "tfdoctor.redact",
        "tfdoctor.fix.pip",
    ),
    # `tfdoctor cluster`, `diff`, `fleet`: validates cluster descriptions with the causes
    # catalogue, runs its worker child as the probes run theirs, compares nodes' facts.
    "tfdoctor.cluster": (
        "tfdoctor.facts",
        "tfdoctor.findings",
        "tfdoctor.matrix",
        "tfdoctor.compat",
        "tfdoctor.machine",
        "tfdoctor.causes",
        "tfdoctor.probes._run",
        "tfdoctor.probes._lifeline",
        "tfdoctor.defaults",
        # What a worker's error says about its peers, read by the shared evidence layer.
        "tfdoctor.evidence",
        "tfdoctor.cluster",
        "tfdoctor.units",
    ),
}
#: The package itself (``from tfdoctor import __version__``; ``from tfdoctor import causes``
#: names a module and is checked as that module).
_PACKAGE_ITSELF = {"tfdoctor.doctor", "tfdoctor.smoke.service", "tfdoctor.scan.target"}


def _module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    return _imports_of(path.read_text(encoding="utf-8"))


def _imports_of(source: str) -> set[str]:
    """Modules a source imports; ``from tfdoctor import causes`` counts as ``tfdoctor.causes``
    (a submodule), ``from tfdoctor import __version__`` as ``tfdoctor``."""
    tree = ast.parse(source)
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "tfdoctor":
                for alias in node.names:
                    sub = PACKAGE / alias.name
                    is_module = sub.with_suffix(".py").exists() or (sub / "__init__.py").exists()
                    names.add(f"tfdoctor.{alias.name}" if is_module else "tfdoctor")
            else:
                names.add(node.module)
    return names


def _within(imported: str, prefixes: tuple[str, ...]) -> bool:
    return any(imported == p or imported.startswith(p + ".") for p in prefixes)


#: Modules any layer may import: the immutable-record base of every layer's data types, the
#: cache of results that are pure functions of files, the readers that bound what a user
#: hands in, the quoting of a shell word for printed commands, and the reading of NVIDIA's
#: version integers. None imports the package.
FOUNDATION = (
    "tfdoctor.records",
    "tfdoctor.cache",
    "tfdoctor.bounded",
    "tfdoctor.shellword",
    "tfdoctor.version_codes",
)


def _layer_of(name: str) -> Optional[str]:
    """The most specific layer ``name`` belongs to; None above every layer (entry, cli)."""
    return next((k for k in sorted(ALLOWED, key=len, reverse=True) if _within(name, (k,))), None)


def _reaches(imported: str, prefixes: tuple[str, ...]) -> bool:
    """Whether a prefix admits ``imported``: a layer nested in a package (``pin.service`` in
    ``pin``) is admitted only by a prefix that names it, not by its package's."""
    target = _layer_of(imported)
    return any(
        _within(imported, (p,)) and (target is None or _within(p, (target,))) for p in prefixes
    )


def layer_violations(name: str, imports: set[str]) -> list[str]:
    """The imports of module ``name`` that its layer forbids."""
    layer = _layer_of(name)
    if layer is None:
        return []  # entry, cli, __main__: the top of the program may import any layer
    internal = {i for i in imports if i == "tfdoctor" or i.startswith("tfdoctor.")}
    bad = []
    for imported in sorted(internal):
        if imported == "tfdoctor" and layer in _PACKAGE_ITSELF:
            continue
        if _reaches(imported, (layer, *ALLOWED[layer], *FOUNDATION)):
            continue
        bad.append(f"{name} imports {imported}")
    return bad


@pytest.mark.parametrize(
    ("name", "source", "expected"),
    [
        pytest.param("tfdoctor.facts", "import tfdoctor.checks", 1, id="facts-imports-checks"),
        pytest.param("tfdoctor.doctor", "from tfdoctor.cli import app", 1, id="doctor-imports-cli"),
        pytest.param(
            "tfdoctor.doctor", "from tfdoctor import gpu_config", 1, id="doctor-imports-gpu-config"
        ),
        pytest.param("tfdoctor.probes.system", "from tfdoctor import causes", 1, id="probe-causes"),
        pytest.param("tfdoctor.machine", "from tfdoctor.checks import gpu", 1, id="machine-checks"),
        pytest.param("tfdoctor.checks.gpu", "from tfdoctor import causes", 0, id="checks-causes"),
        pytest.param(
            "tfdoctor.evidence.pip", "from tfdoctor.causes import gpu", 1, id="evidence-causes"
        ),
        pytest.param(
            "tfdoctor.causes.gpu", "from tfdoctor.causes.conda import x", 0, id="cause-areas"
        ),
        pytest.param(
            "tfdoctor.causes.gpu", "from tfdoctor.checks import gpu", 1, id="causes-checks"
        ),
        pytest.param("tfdoctor.doctor", "from tfdoctor import __version__", 0, id="doctor-version"),
        pytest.param("tfdoctor.compat", "import tfdoctor.compat_extra", 1, id="prefix-not-module"),
        pytest.param(
            "tfdoctor.pin.service", "from tfdoctor.cli.output import fail", 1, id="service-cli"
        ),
        pytest.param("tfdoctor.inputs", "from tfdoctor.doctor import diagnose", 1, id="inputs-up"),
        pytest.param(
            "tfdoctor.smoke.service", "from tfdoctor.doctor import diagnose", 1, id="smoke-doctor"
        ),
        pytest.param("tfdoctor.pin", "from tfdoctor.pin.service import make_pins", 1, id="pin-up"),
        pytest.param(
            "tfdoctor.cli.pin", "from tfdoctor.pin.service import make_pins", 0, id="cli-service"
        ),
    ],
)
def test_the_layering_rule_catches_violations(name: str, source: str, expected: int) -> None:
    assert len(layer_violations(name, _imports_of(source))) == expected


MODULES = sorted(PACKAGE.rglob("*.py"))


def process_violations(name: str, imports: set[str]) -> list[str]:
    """Imports of module ``name`` that the layers do not cover: TensorFlow anywhere but in a
    child script and gpu_config, a renderer anywhere but in the renderers and the CLI."""
    bad = []
    # gpu_config's configure_gpus() runs in the user's training process, where it must
    # configure TensorFlow itself; the doctor never imports it (see the test below).
    if "child" not in name.split(".") and name != "tfdoctor.gpu_config":
        bad += [f"{name} imports {i}" for i in sorted(imports) if i.split(".")[0] == "tensorflow"]
    if not _within(name, ("tfdoctor.cli", "tfdoctor.render")):
        bad += [f"{name} imports {i}" for i in sorted(imports) if _within(i, ("tfdoctor.render",))]
    return bad


@pytest.mark.parametrize(
    ("name", "source", "expected"),
    [
        pytest.param("tfdoctor.checks.gpu", "import tensorflow as tf", 1, id="check-imports-tf"),
        pytest.param("tfdoctor.entry", "from tensorflow import config", 1, id="entry-imports-tf"),
        pytest.param("tfdoctor.probes.child.tf_info", "import tensorflow", 0, id="child-tf"),
        pytest.param("tfdoctor.gpu_config", "import tensorflow", 0, id="gpu-config-tf"),
        pytest.param("tfdoctor.entry", "from tfdoctor.render import text", 1, id="entry-render"),
        pytest.param("tfdoctor.cli", "from tfdoctor.render import text", 0, id="cli-render"),
        pytest.param("tfdoctor.render.text", "import tfdoctor.render._common", 0, id="render"),
    ],
)
def test_the_process_rule_catches_violations(name: str, source: str, expected: int) -> None:
    assert len(process_violations(name, _imports_of(source))) == expected


@pytest.mark.parametrize("path", MODULES, ids=_module_name)
def test_imports_follow_the_data_flow(path: Path) -> None:
    name = _module_name(path)
    assert layer_violations(name, _imports(path)) == []
    assert process_violations(name, _imports(path)) == []


CHILDREN = sorted((PACKAGE / "probes" / "child").glob("*.py"))


def child_violations(filename: str, source: str, stdlib: set[str]) -> list[str]:
    """Imports of a child script outside the standard library (a child runs by path in the
    target interpreter, which has only that); SyntaxError where Python 3.7 cannot parse it."""
    ast.parse(source, feature_version=(3, 7))
    # nvml_info runs under the doctor's own interpreter, where nvidia-ml-py is installed;
    # env_info tries the importlib_metadata backport on 3.7 and falls back without it;
    # tf_info is the one child that imports TensorFlow.
    allowed = {
        "nvml_info.py": {"pynvml"},
        "env_info.py": {"importlib_metadata"},
        "tf_info.py": {"tensorflow"},
    }.get(filename, set())
    tops = sorted({i.split(".")[0] for i in _imports_of(source)})
    return [top for top in tops if top not in stdlib | allowed | {"__future__"}]


@pytest.mark.parametrize("path", CHILDREN, ids=lambda p: p.name)
def test_child_scripts_run_on_python_37_with_the_standard_library(path: Path) -> None:
    stdlib = set(getattr(sys, "stdlib_module_names", ()))
    if not stdlib:
        pytest.skip("sys.stdlib_module_names needs Python 3.10+")
    assert child_violations(path.name, path.read_text(encoding="utf-8"), stdlib) == []


def test_the_child_rule_catches_violations() -> None:
    stdlib = set(getattr(sys, "stdlib_module_names", ()))
    if not stdlib:
        pytest.skip("sys.stdlib_module_names needs Python 3.10+")
    assert child_violations("gpu_info.py", "import json\nimport yaml\n", stdlib) == ["yaml"]
    assert child_violations("gpu_info.py", "import tensorflow\n", stdlib) == ["tensorflow"]
    assert child_violations("tf_info.py", "import tensorflow\n", stdlib) == []
    assert child_violations("gpu_info.py", "from tfdoctor import facts\n", stdlib) == ["tfdoctor"]
    with pytest.raises(SyntaxError):
        child_violations("gpu_info.py", "if (n := 1):\n    pass\n", stdlib)


def test_importing_the_cli_leaves_tensorflow_out() -> None:
    code = (
        "import sys, tfdoctor.cli.app, tfdoctor.doctor; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('tensorflow', 'keras')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=PACKAGE.parent,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert out.stdout.strip() == "[]"


def test_compatibility_doc_is_generated_from_the_matrix() -> None:
    """docs/compatibility.md is exactly what the matrix renders to (regenerate when stale)."""
    from tfdoctor.matrix import load_companions, load_matrix
    from tfdoctor.render.matrixdoc import render_compat_doc

    root = PACKAGE.parent
    doc = (root / "docs" / "compatibility.md").read_text(encoding="utf-8")
    expected = render_compat_doc(load_matrix(str(root / "compat_matrix.yaml")), load_companions())
    assert doc == expected, (
        "docs/compatibility.md is stale: python scripts/gen_compatibility_doc.py"
    )


def test_every_subpackage_is_shipped() -> None:
    """`pip install .` installs the packages pyproject.toml lists: each one with an
    ``__init__.py`` must be there, or the installed tfdoctor lacks it."""
    tomllib = pytest.importorskip("tomllib", reason="tomllib is Python 3.11+")
    listed = set(
        tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
            "setuptools"
        ]["packages"]
    )
    present = {_module_name(p.parent / "__init__.py") for p in PACKAGE.rglob("__init__.py")}
    assert "tfdoctor.probes.child" in present and present - listed == set()
    # Planted: a subpackage pyproject.toml forgets.
    assert present - (listed - {"tfdoctor.probes.child"}) == {"tfdoctor.probes.child"}


#: Id areas whose checks live in a module of another name: ``doctor.probes`` reports on the
#: probes beside the platform checks (a ``checks/doctor.py`` would share its name with
#: ``tfdoctor/doctor.py``).
AREA_MODULES = {"doctor": "platform"}
#: Checks the registry runs itself because they judge other checks' findings (``gpu.required``
#: judges ``GPU_GATE``'s), with the function of the area module that does the judging.
JUDGED_BY = {"gpu.required": "check_gpu_required"}


def area_module(check_id: str) -> str:
    """The module a check of this id belongs in: ``tfdoctor.checks.<area>``."""
    area = check_id.split(".", maxsplit=1)[0]
    return f"tfdoctor.checks.{AREA_MODULES.get(area, area)}"


def misplaced_checks(checks: Iterable[Check]) -> list[str]:
    """The checks whose function is not defined in the module named after their id's area."""
    bad = []
    for check in checks:
        module = area_module(check.id)
        func: object = check.func
        if check.id in JUDGED_BY:
            func = getattr(importlib.import_module(module), JUDGED_BY[check.id], None)
        where = getattr(func, "__module__", "?")
        if where != module:
            bad.append(f"{check.id}: {where}.{getattr(func, '__name__', '?')} not in {module}")
    return bad


def modules_without_checks(checks: Iterable[Check], modules: Iterable[str]) -> list[str]:
    """The public modules of ``tfdoctor/checks/`` that hold none of ``checks``; the private
    ``_*`` modules (what a check receives, helpers several areas share) hold none."""
    homes = {area_module(c.id) for c in checks}
    return sorted(
        m for m in modules if not m.rsplit(".", maxsplit=1)[-1].startswith("_") and m not in homes
    )


CHECK_MODULES = sorted(_module_name(p) for p in (PACKAGE / "checks").glob("[!_]*.py"))


def test_every_check_lives_in_the_module_named_after_its_area() -> None:
    """``packages.pins`` is in checks/packages.py: the id says which file to open."""
    assert misplaced_checks(CHECKS) == []


def test_a_check_outside_its_area_module_is_caught() -> None:
    planted = (
        Check("gpu.planted", "A cuda check registered under gpu", cuda.check_cuda_libraries),
        Check("doctor.planted", "In the platform module, as mapped", platform.check_probes),
        Check("python.planted", "A lambda of this test", lambda ctx: ()),
    )
    assert misplaced_checks(planted) == [
        "gpu.planted: tfdoctor.checks.cuda.check_cuda_libraries not in tfdoctor.checks.gpu",
        f"python.planted: {__name__}.<lambda> not in tfdoctor.checks.python",
    ]


def test_every_check_module_holds_a_check() -> None:
    """A module of checks left without one (a catch-all emptied by a move) goes away."""
    assert modules_without_checks(CHECKS, CHECK_MODULES) == []
    assert modules_without_checks(CHECKS, [*CHECK_MODULES, "tfdoctor.checks.compat"]) == [
        "tfdoctor.checks.compat"
    ]


# explain's parts in the order they may import one another: each only from those before it
# (docs/explain.md, "Where the code lives"). The package itself only re-exports.
EXPLAIN_ORDER = [
    "scanning",
    "revealed",
    "common",
    "drivers",
    "libraries",
    "xla",
    "platform",
    "native",
    "network",
    "software",
    "conda",
    "containers",
    "progress",
    "cluster",
    "notebooks",
    "hosted",
    "wheels",
    "overlaps",
    "builders",
    "assembly",
]


def _explain_imports_of(source: str) -> set[str]:
    """Modules an explain part's ``source`` imports, a relative import (``from .assembly import
    x``, ``from . import assembly``) read as the absolute one it stands for."""
    names = _imports_of(source)
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                names.add(f"tfdoctor.explain.{node.module}")
            else:
                names.update(f"tfdoctor.explain.{a.name}" for a in node.names)
    return names


def explain_order_violations(name: str, imports: set[str]) -> list[str]:
    """Imports of explain's part ``name`` (a short name of :data:`EXPLAIN_ORDER`) of a part
    after it, of itself, or of the package ``tfdoctor.explain`` (whose names live in a part)."""
    rank = EXPLAIN_ORDER.index(name)
    bad = []
    for imported in sorted(imports):
        if imported == "tfdoctor.explain":
            bad.append(f"{name} imports the package")
        elif imported.startswith("tfdoctor.explain."):
            part = imported.split(".")[2]
            if part in EXPLAIN_ORDER and EXPLAIN_ORDER.index(part) >= rank:
                bad.append(f"{name} imports {part}")
    return bad


@pytest.mark.parametrize("part", EXPLAIN_ORDER)
def test_explains_parts_import_only_the_parts_before_them(part: str) -> None:
    source = (PACKAGE / "explain" / f"{part}.py").read_text(encoding="utf-8")
    assert explain_order_violations(part, _explain_imports_of(source)) == []


@pytest.mark.parametrize(
    ("part", "source", "expected"),
    [
        pytest.param("revealed", "from tfdoctor.explain.scanning import Hits", 0, id="down"),
        pytest.param("scanning", "from tfdoctor.explain.revealed import reveal", 1, id="up"),
        pytest.param("wheels", "from tfdoctor.explain import Hits", 1, id="package"),
        pytest.param("software", "from tfdoctor.explain.packages import x", 0, id="reader"),
        pytest.param("scanning", "from .assembly import explain", 1, id="relative-up"),
        pytest.param("scanning", "from . import builders", 1, id="relative-module"),
        pytest.param("builders", "from .scanning import Hits", 0, id="relative-down"),
    ],
)
def test_the_explain_order_rule_catches_violations(part: str, source: str, expected: int) -> None:
    assert len(explain_order_violations(part, _explain_imports_of(source))) == expected


def test_explains_package_defines_nothing_of_its_own() -> None:
    """``tfdoctor/explain/__init__.py`` re-exports the public names of its parts, no more."""
    tree = ast.parse((PACKAGE / "explain" / "__init__.py").read_text(encoding="utf-8"))
    defined = [
        type(node).__name__
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.ClassDef))
        or (isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) != "__all__")
    ]
    assert defined == []
    assert set(EXPLAIN_ORDER) <= {p.stem for p in (PACKAGE / "explain").glob("*.py")}


def explain_shared_names() -> dict[tuple[str, str], set[str]]:
    """Each name one of explain's parts defines and other modules of the package import:
    (part, name) to the importing modules."""
    users: dict[tuple[str, str], set[str]] = {}
    for path in sorted((PACKAGE / "explain").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "tfdoctor.explain."
            ):
                part = str(node.module).split(".")[2]
                if part in EXPLAIN_ORDER and part != path.stem:
                    for alias in node.names:
                        users.setdefault((part, alias.name), set()).add(path.stem)
    return users


#: explain's parts that hold the builders of one area (docs/explain.md, "Where the code lives").
EXPLAIN_AREAS = EXPLAIN_ORDER[EXPLAIN_ORDER.index("drivers") : EXPLAIN_ORDER.index("overlaps")]


def test_explains_helpers_shared_by_many_parts_are_public() -> None:
    """A name five or more modules import is the package's API, not a part's private one."""
    private = sorted(
        f"{part}.{name} ({len(users)})"
        for (part, name), users in explain_shared_names().items()
        if name.startswith("_") and len(users) >= 5
    )
    assert private == []


def test_explains_areas_keep_no_helper_of_other_areas() -> None:
    """A helper of one area's module that three or more other parts import belongs in
    ``common`` (the helpers several areas share), not in that area."""
    misplaced = sorted(
        f"{part}.{name}: {sorted(users)}"
        for (part, name), users in explain_shared_names().items()
        if part in EXPLAIN_AREAS and len(users) >= 3
    )
    assert misplaced == []


def test_explains_areas_call_no_other_areas_settling() -> None:
    """A reading that settles findings of another area (``_settle_wsl1``, a kernel's install,
    a pod) is called where the findings are put together (``assembly``), not from an area."""
    crossing = sorted(
        f"{part}.{name}: {sorted(users & set(EXPLAIN_AREAS))}"
        for (part, name), users in explain_shared_names().items()
        if name.lstrip("_").startswith("settle") and users & set(EXPLAIN_AREAS)
    )
    assert crossing == []


@pytest.mark.parametrize(
    ("name", "part"),
    [
        # TF-TRT and cuDNN's "DNN library is not found" are GPU libraries, not the platform's.
        ("_no_tensorrt", "libraries"),
        ("_settle_dnn_not_found", "libraries"),
        # A second TensorBoard is a companion package, not a CUDA library.
        ("_tensorboard_duplicate", "software"),
        # Dropping a signature's hits from a cause is a helper of several areas.
        ("_without", "common"),
    ],
)
def test_explains_readings_sit_in_their_area(name: str, part: str) -> None:
    defined = {
        p.stem
        for p in (PACKAGE / "explain").glob("*.py")
        if any(
            isinstance(node, ast.FunctionDef) and node.name == name
            for node in ast.parse(p.read_text(encoding="utf-8")).body
        )
    }
    assert defined == {part}


def test_explains_order_is_the_one_docs_explain_md_gives() -> None:
    """The parts in the order "Where the code lives" lists them (its last paragraph names the
    readers beside them, which the order does not hold)."""
    doc = (PACKAGE.parent / "docs" / "explain.md").read_text(encoding="utf-8")
    section = doc.split("## Where the code lives", 1)[1].split("\n## ", 1)[0]
    listed = section.split("The readers of one kind of text", 1)[0]
    named = re.findall(r"`(\w+)\.py`", listed)
    assert [n for n in named if n != "__init__"] == EXPLAIN_ORDER
