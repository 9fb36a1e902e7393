"""The shape of the program: imports follow the data flow, TensorFlow stays out of the doctor."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "tfdoctor"

# For each layer: the tfdoctor modules (by prefix) it may import.
ALLOWED = {
    "tfdoctor.defaults": (),
    "tfdoctor.facts": (),
    "tfdoctor.findings": ("tfdoctor.facts",),
    "tfdoctor.redact": ("tfdoctor.facts", "tfdoctor.findings"),
    "tfdoctor.probes": ("tfdoctor.facts", "tfdoctor.probes"),
    # The smoke test runs a child like the probes do, and reads its events into facts.
    "tfdoctor.smoke": (
        "tfdoctor.defaults",
        "tfdoctor.facts",
        "tfdoctor.probes._run",
        "tfdoctor.smoke",
    ),
    "tfdoctor.matrix": (),
    "tfdoctor.compat": ("tfdoctor.matrix",),
    "tfdoctor.checks": (
        "tfdoctor.facts",
        "tfdoctor.findings",
        "tfdoctor.matrix",
        "tfdoctor.compat",
        "tfdoctor.checks",
    ),
    "tfdoctor.render": (
        "tfdoctor.matrix",
        "tfdoctor.compat",
        "tfdoctor.facts",
        "tfdoctor.findings",
        "tfdoctor.redact",
        "tfdoctor.render",
        "tfdoctor.envvars",
        "tfdoctor.pin",
    ),
    "tfdoctor.envvars": ("tfdoctor.facts",),
    # Pins from facts and the matrix (the packages probe lists the installed distributions).
    "tfdoctor.pin": ("tfdoctor.facts", "tfdoctor.matrix", "tfdoctor.compat", "tfdoctor.pin"),
    # The training-script API: imports TensorFlow inside its function, nothing of the package.
    "tfdoctor.gpu_config": (),
    "tfdoctor.doctor": (
        "tfdoctor.facts",
        "tfdoctor.findings",
        "tfdoctor.probes",
        "tfdoctor.matrix",
        "tfdoctor.compat",
        "tfdoctor.checks",
        "tfdoctor",
    ),
}


def _module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


MODULES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=_module_name)
def test_imports_follow_the_data_flow(path: Path) -> None:
    name = _module_name(path)
    layer = next((k for k in sorted(ALLOWED, key=len, reverse=True) if name.startswith(k)), None)
    internal = {i for i in _imports(path) if i == "tfdoctor" or i.startswith("tfdoctor.")}
    # gpu_config's configure_gpus() runs in the user's training process, where it must
    # configure TensorFlow itself; the doctor never imports it (see the test below).
    if "child" not in path.parts and name != "tfdoctor.gpu_config":
        assert not any(i.split(".")[0] == "tensorflow" for i in _imports(path)), name
    if layer is None:
        return  # cli, __main__: the top of the program may import any layer
    for imported in internal:
        if imported == "tfdoctor" and layer == "tfdoctor.doctor":
            continue
        assert imported.startswith(ALLOWED[layer]), f"{name} imports {imported}"
    if name != "tfdoctor.cli":
        assert (
            not any(i.startswith("tfdoctor.render") for i in internal) or layer == "tfdoctor.render"
        )


CHILDREN = sorted((PACKAGE / "probes" / "child").glob("*.py"))


@pytest.mark.parametrize("path", CHILDREN, ids=lambda p: p.name)
def test_child_scripts_run_on_python_37_with_the_standard_library(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    ast.parse(source, feature_version=(3, 7))
    stdlib = set(getattr(sys, "stdlib_module_names", ()))
    if not stdlib:
        pytest.skip("sys.stdlib_module_names needs Python 3.10+")
    # nvml_info runs under the doctor's own interpreter, where nvidia-ml-py is installed;
    # env_info tries the importlib_metadata backport on 3.7 and falls back without it.
    allowed_extra = {"nvml_info.py": {"pynvml"}, "env_info.py": {"importlib_metadata"}}.get(
        path.name, set()
    )
    for imported in _imports(path):
        top = imported.split(".")[0]
        if top == "tensorflow" and path.name == "tf_info.py":
            continue
        assert top in stdlib or top in allowed_extra or top == "__future__", imported


def test_importing_the_cli_leaves_tensorflow_out() -> None:
    code = (
        "import sys, tfdoctor.cli, tfdoctor.doctor; "
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
    from tfdoctor.matrix import load_matrix
    from tfdoctor.render.matrixdoc import render_compat_doc

    root = PACKAGE.parent
    doc = (root / "docs" / "compatibility.md").read_text(encoding="utf-8")
    expected = render_compat_doc(load_matrix(str(root / "compat_matrix.yaml")))
    assert doc == expected, (
        "docs/compatibility.md is stale: python scripts/gen_compatibility_doc.py"
    )


def test_the_installed_package_ships_the_repository_matrix() -> None:
    """An installed tfdoctor (CI installs it) carries compat_matrix.yaml, byte for byte."""
    import importlib.metadata

    try:
        dist = importlib.metadata.distribution("tfdoctor")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("the package is not installed in this environment (only importable)")
    entry = next((f for f in dist.files or () if f.name == "compat_matrix.yaml"), None)
    if entry is None and (dist.read_text("direct_url.json") or "").find('"editable"') >= 0:
        pytest.skip("an editable install serves the matrix from the source tree")
    assert entry is not None, "compat_matrix.yaml is missing from the installed package"
    installed = Path(str(dist.locate_file(entry))).read_bytes()
    assert installed == (PACKAGE.parent / "compat_matrix.yaml").read_bytes()
