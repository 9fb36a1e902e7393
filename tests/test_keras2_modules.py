"""The table of what Keras 2's own modules exported, and the script that reads it from wheels."""

from __future__ import annotations

import importlib.util
import subprocess
import zipfile
from pathlib import Path
from types import ModuleType

from tfdoctor.scan.api import DATA_DIR, KERAS2_MODULES, keras2_module_exports, keras2_module_last


def _load_script(name: str = "gen_keras2_modules") -> ModuleType:
    """Import scripts/NAME.py (scripts/ is not a package)."""
    path = Path(__file__).resolve().parent.parent / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen = _load_script()


def test_exports_are_read_from_decorators_and_calls() -> None:
    source = (
        "from tensorflow.python.util.tf_export import keras_export\n"
        '@keras_export("keras.utils.to_categorical")\n'
        "def to_categorical(y): ...\n"
        'keras_export("keras.utils.normalize", v1=["keras.utils.old"])(print)\n'
        '@other("keras.utils.not_this")\n'
        "def f(): ...\n"
    )
    assert gen.exported(source) == {"keras.utils.to_categorical", "keras.utils.normalize"}
    assert gen.exported("def broken(:\n") == set()


def test_a_wheel_is_read_module_by_module(tmp_path: Path) -> None:
    wheel = tmp_path / "keras-2.0.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr(
            "keras/utils/np_utils.py", '@keras_export("keras.utils.a")\ndef a(): ...\n'
        )
        archive.writestr("keras/layers/__init__.py", 'keras_export("keras.layers.B")(1)\n')
        archive.writestr("keras/api/_v2/keras/utils/__init__.py", 'keras_export("keras.x")(1)\n')
        archive.writestr("keras/utils/np_utils_test.py", 'keras_export("keras.y")(1)\n')
    assert gen.read_wheel(wheel) == {
        "keras.utils.np_utils": {"keras.utils.a"},
        "keras.layers": {"keras.layers.B"},
    }
    text = gen.render([wheel], gen.read_wheel(wheel))
    assert "keras-2.0.0-py3-none-any.whl sha256=" in text
    assert "keras.utils.np_utils\tkeras.utils.a\n" in text


def test_the_bundled_table_cites_its_wheels_and_answers_both_roots() -> None:
    text = (DATA_DIR / KERAS2_MODULES).read_text(encoding="utf-8")
    assert "keras-2.12.0-py2.py3-none-any.whl sha256=" in text
    assert "keras.utils.to_categorical" in keras2_module_exports("keras.utils.np_utils")
    assert "tf.keras.utils.to_categorical" in keras2_module_exports("tf.keras.utils.np_utils")
    assert keras2_module_exports("keras.no_such_module") == ()


releases = _load_script("gen_keras2_module_releases")


def test_the_release_table_reads_modules_from_a_tree_without_tests() -> None:
    assert releases.module_of("keras/utils/layer_utils.py") == "keras.utils.layer_utils"
    assert releases.module_of("keras/engine/__init__.py") == "keras.engine"
    assert releases.module_of("keras/engine/training_test.py") == ""
    assert releases.module_of("keras/engine/BUILD") == ""
    files = {
        "keras/engine/functional.py",
        "keras/utils/layer_utils.py",
        "keras/utils/other.py",
        "keras/engine/functional_test.py",
    }
    # The layout's packages whole, elsewhere only the modules the wheels' table lists.
    assert releases.wanted(files, {"keras.utils.layer_utils"}) == {
        "keras.engine.functional",
        "keras.utils.layer_utils",
    }


def test_the_bundled_release_table_knows_where_keras_2s_own_modules_ended() -> None:
    assert keras2_module_last("keras.engine") == "2.12"
    assert keras2_module_last("tf.keras.utils.layer_utils") == "2.12"
    assert keras2_module_last("keras.layers.merge") == "2.8"
    # The optimizer_v2 package at its first place (keras/optimizer_v2/ to v2.8.0), whose
    # utils.py exports nothing, as at its second (keras/optimizers/optimizer_v2/ to v2.11.0).
    assert keras2_module_last("keras.optimizer_v2.utils") == "2.8"
    assert keras2_module_last("keras.optimizers.optimizer_v2.utils") == "2.11"
    assert keras2_module_last("keras.engine.topology") == ""


def test_the_release_table_cites_the_releases_that_moved_the_modules() -> None:
    head = (DATA_DIR / "keras2_module_releases.txt").read_text(encoding="utf-8")
    for tag in releases.MOVED:
        assert f"keras-team/keras {tag} " in head
    assert releases.wanted({"keras/optimizer_v2/utils.py"}, set()) == {"keras.optimizer_v2.utils"}


def test_the_release_table_checks_the_later_releases_build_under_keras_src(
    tmp_path: Path,
) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)

    git("init", "-q")
    git("config", "user.email", "t@example.invalid")
    git("config", "user.name", "t")
    build = tmp_path / "pip_build.py"
    build.write_text(f'PACKAGE_NAME = "keras"\n{releases.SRC_LINE}\n', encoding="utf-8")
    git("add", "pip_build.py")
    git("commit", "-q", "-m", "a")
    git("tag", "moved")
    build.write_text('PACKAGE_NAME = "keras"\nSRC_DIRNAME = ""\n', encoding="utf-8")
    git("commit", "-q", "-am", "b")
    git("tag", "flat")
    assert releases.moves_to_src(tmp_path, "moved")
    assert not releases.moves_to_src(tmp_path, "flat")
