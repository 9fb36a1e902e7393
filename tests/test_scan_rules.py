"""The scan rules file and the API listing: strict validation, sources, and freshness."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from tfdoctor.causes import CAUSES
from tfdoctor.scan.api import MISSING, OK, UNKNOWN, api_for, bundled_lines, load_api, parse_api
from tfdoctor.scan.rules import Rule, RulesError, RuleSource, load_rules, parse_rules

ROOT = Path(__file__).resolve().parent.parent

GOOD = """\
schema_version: 1
sources:
  - id: notes
    title: Release notes
    url: https://example.org/notes
rules:
  - id: a-rule
    api: [tf.Session]
    removed_in: "2.0"
    effect: attribute-error
    what: gone
    replacement: use this
    cause: api-removed
    sources: [notes]
"""


def rule_faults(rule: Rule) -> list[str]:
    """What keeps a rule from being shown: a cause outside the catalogue, no source, a source
    that is not an https address, no words for what breaks or what replaces it."""
    faults = [] if rule.cause in CAUSES else [f"unknown cause {rule.cause!r}"]
    faults += [] if rule.sources else ["no source"]
    faults += [f"{s.id} is not https" for s in rule.sources if not s.url.startswith("https://")]
    faults += [f"no {field}" for field in ("what", "replacement") if not getattr(rule, field)]
    return faults


def test_bundled_rules_load_and_cite_their_sources() -> None:
    rules = load_rules().rules
    assert len(rules) >= 30
    assert [(r.id, fault) for r in rules for fault in rule_faults(r)] == []


@pytest.mark.parametrize(
    ("change", "fault"),
    [
        pytest.param({"cause": "no-such-cause"}, "unknown cause 'no-such-cause'", id="cause"),
        pytest.param({"sources": ()}, "no source", id="no-source"),
        pytest.param(
            {"sources": (RuleSource("old", "Old notes", "http://example.org"),)},
            "old is not https",
            id="http-source",
        ),
        pytest.param({"what": ""}, "no what", id="no-what"),
        pytest.param({"replacement": ""}, "no replacement", id="no-replacement"),
    ],
)
def test_a_planted_bad_rule_is_caught(change: dict[str, object], fault: str) -> None:
    rule = dataclasses.replace(load_rules().rules[0], **change)  # type: ignore[arg-type]
    assert rule_faults(rule) == [fault]


def test_a_minimal_file_parses() -> None:
    (rule,) = parse_rules(GOOD, "r.yaml").rules
    assert (rule.id, rule.kind, rule.release, rule.severity) == (
        "a-rule",
        "removed",
        "2.0",
        "error",
    )


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "    effect: attribute-error\n",
            "    effect: boom\n",
            "r.yaml:10: rules[a-rule].effect: 'boom' is not one of attribute-error, ",
        ),
        (
            "    cause: api-removed\n",
            "    cause: nope\n",
            "r.yaml:13: rules[a-rule].cause: unknown cause",
        ),
        (
            "    sources: [notes]\n",
            "    sources: [other]\n",
            "r.yaml:14: rules[a-rule].sources: unknown",
        ),
        (
            '    removed_in: "2.0"\n',
            '    removed_in: "two"\n',
            "r.yaml:9: rules[a-rule].removed_in: 'two'",
        ),
        (
            "    api: [tf.Session]\n",
            "    api: [tf.Session]\n    colour: red\n",
            "r.yaml:9: rules[0].colour: unknown field",
        ),
        (
            "    api: [tf.Session]\n",
            "    api: [numpy.load]\n",
            "r.yaml:8: rules[a-rule].api[0]: 'numpy.load'",
        ),
        (
            "    url: https://example.org/notes\n",
            "    url: http://x\n",
            "r.yaml:5: sources[notes].url: must be",
        ),
        (
            '    removed_in: "2.0"\n',
            '    removed_in: "2.0"\n    changed_in: "2.1"\n',
            "exactly one",
        ),
    ],
    ids=["effect", "cause", "source", "release", "unknown-field", "api", "url", "both-releases"],
)
def test_errors_name_file_line_and_field(old: str, new: str, message: str) -> None:
    with pytest.raises(RulesError) as caught:
        parse_rules(GOOD.replace(old, new), "r.yaml")
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_yaml_syntax_error_is_one_line() -> None:
    with pytest.raises(RulesError, match=r"^r.yaml:\d+: YAML syntax error"):
        parse_rules("rules: [\n", "r.yaml")


def test_listing_answers_exists_missing_and_unknown() -> None:
    api = parse_api(
        "# tensorflow 9.1.0\n# keras 3.0.0\n"
        "tf\tcompat/ keras/ Variable __version__\n"
        "tf.compat\tv1/\n"
        "tf.compat.v1\tSession\n"
        "tf.keras\tlayers/\n"
        "tf.keras.layers\t*\n"
        "=tf.compat.v1.random_normal\ttf.random.normal\n"
    )
    assert api.line == "9.1"
    assert api.lookup("tf.Variable.assign").status == OK
    assert api.lookup("tf.__version__").status == OK
    assert api.lookup("tf.Session").status == MISSING
    assert api.lookup("tf.contrib.layers").missing_at == "tf.contrib"
    assert api.lookup("tf.keras.layers.Anything").status == UNKNOWN
    assert api.lookup("tf.python.keras").status == UNKNOWN  # private, not judged
    assert api.renames["tf.compat.v1.random_normal"] == "tf.random.normal"


def test_homes_are_the_symbols_of_one_last_part_under_the_root_asked() -> None:
    api = parse_api(
        "# tensorflow 9.1.0\n# keras 3.0.0\n"
        "keras\tlayers/ ops/ utils/\n"
        "keras.layers\tDense utils/\n"
        "keras.layers.utils\tget_file\n"
        "keras.ops\trelu\n"
        "keras.utils\tget_file\n"
        "tf\tkeras/\n"
        "tf.keras\tutils/\n"
        "tf.keras.utils\tget_file\n"
    )
    assert api.homes("get_file", "keras") == ["keras.layers.utils.get_file", "keras.utils.get_file"]
    assert api.homes("get_file", "tf.keras") == ["tf.keras.utils.get_file"]
    assert api.homes("utils", "keras") == []  # a submodule is no symbol's home
    assert api.homes("Conv2D", "keras") == []


def test_bundled_listing_is_the_real_api() -> None:
    (line, *_) = bundled_lines()
    api = load_api(line)
    assert api is not None and api.tensorflow.startswith(line)
    assert api.has("tf.compat.v1.Session") and not api.has("tf.Session")
    assert api.has("tf.keras.optimizers.Adam") and not api.has("keras.backend.int_shape")
    assert api_for(line) is api
    assert api_for("1.15") is None


def test_listing_is_current_with_the_installed_tensorflow() -> None:
    import sysconfig

    site = Path(sysconfig.get_paths()["purelib"])
    if not (site / "tensorflow" / "_api" / "v2").is_dir() or not (site / "keras").is_dir():
        pytest.skip("TensorFlow and Keras are not installed in this environment")
    version = next(site.glob("tensorflow-*.dist-info")).name.split("-")[1]
    if ".".join(version.split(".")[:2]) not in bundled_lines():
        pytest.skip(f"no listing is bundled for the installed TensorFlow {version}")
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_scan_api.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("rule_id", "named", "unnamed"),
    [
        # Keras 3's keras.backend has no relu; keras.activations.relu takes max_value on every
        # Keras from 2.0.
        pytest.param(
            "keras220-mobilenet-relu6",
            "keras.activations.relu",
            "keras.backend.relu",
            id="relu6-function",
        ),
    ],
)
def test_a_keras_rules_fix_names_what_the_newest_keras_exports(
    rule_id: str, named: str, unnamed: str
) -> None:
    (rule,) = [r for r in load_rules().rules if r.id == rule_id]
    newest = load_api(bundled_lines()[0])
    assert newest is not None
    assert newest.has(named) and not newest.has(unnamed)
    assert named in rule.replacement and unnamed not in rule.replacement


def test_obtain_input_shape_is_public_only_in_the_keras_releases_that_had_it() -> None:
    # Keras 2.13's pip_build.py moved the sources under keras/src and generates the public
    # modules: keras.applications.imagenet_utils exports preprocess_input and
    # decode_predictions only, there and in Keras 3.
    (rule,) = [r for r in load_rules().rules if r.id == "keras221-obtain-input-shape"]
    newest = load_api(bundled_lines()[0])
    assert newest is not None
    assert not newest.has("keras.applications.imagenet_utils.obtain_input_shape")
    assert "Keras 2.6 to 2.12" in rule.replacement
    assert "2.6 and later" not in rule.replacement
    assert "Keras 2.2.0 to 2.3.1" in rule.replacement  # keras_applications, from setup.py
