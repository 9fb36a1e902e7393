"""The scan rules file and the API listing: strict validation, sources, and freshness."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from tfdoctor.causes import CAUSES
from tfdoctor.matrix import load_matrix
from tfdoctor.scan.api import MISSING, OK, UNKNOWN, api_for, bundled_lines, load_api, parse_api
from tfdoctor.scan.knowledge import ApiKnowledge
from tfdoctor.scan.rules import Rule, RulesError, RuleSource, load_rules, parse_rules

ROOT = Path(__file__).resolve().parent.parent

#: A rules file's sources, then its rules.
HEAD = """\
schema_version: 1
sources:
  - id: notes
    title: Release notes
    url: https://example.org/notes
rules:
"""
GOOD = (
    HEAD
    + """\
  - id: a-rule
    api: [tf.Session]
    removed_in: "2.0"
    effect: attribute-error
    what: gone
    replacement: use this
    cause: api-removed
    sources: [notes]
"""
)


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


FAMILY = (
    HEAD
    + """\
  - methods:
      - {id: opt-get-slot, method: get_slot, does: "reads a slot", port: "read your list"}
      - {id: opt-add-slot, method: add_slot, does: "adds a slot", port: "use build()"}
    receiver: "opt$"
    removed_in: "2.11"
    effect: attribute-error
    what: "No {method}, which {does} ({method})."
    replacement: "Port it: {port}."
    cause: api-removed
    sources: [notes]
"""
)


def test_a_rule_with_methods_is_one_rule_per_method_in_its_words() -> None:
    rules = parse_rules(FAMILY, "r.yaml").rules
    assert [(r.id, r.method, r.what, r.replacement) for r in rules] == [
        (
            "opt-get-slot",
            "get_slot",
            "No get_slot, which reads a slot (get_slot).",
            "Port it: read your list.",
        ),
        (
            "opt-add-slot",
            "add_slot",
            "No add_slot, which adds a slot (add_slot).",
            "Port it: use build().",
        ),
    ]
    assert {(r.release, r.effect, r.receiver.pattern if r.receiver else "") for r in rules} == {
        ("2.11", "attribute-error", "opt$")
    }


def test_the_bundled_optimizer_method_rules_keep_their_ids_and_words() -> None:
    by_id = {r.id: r for r in load_rules().rules}
    rule = by_id["keras211-optimizer-get-slot-names"]
    assert rule.method == "get_slot_names"
    assert rule.what == (
        "From TensorFlow 2.11 the Keras optimizers have no get_slot_names, which lists the slot "
        "names (OptimizerV2's get_slot_names): AttributeError."
    )
    assert rule.replacement.endswith(
        "or port the code to the new Optimizer: read the optimizer's variables from "
        "optimizer.variables."
    )
    methods = (
        "set-hyper",
        "get-hyper",
        "create-slots",
        "add-slot",
        "get-slot",
        "get-slot-names",
        "decayed-lr",
        "resource-apply-dense",
        "resource-apply-sparse",
    )
    assert {f"keras211-optimizer-{m}" for m in methods} <= set(by_id)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        pytest.param(
            "    receiver:",
            "    id: opt-slots\n    receiver:",
            "r.yaml:10: rules[0].id: each entry of methods gives it",
            id="id-beside-methods",
        ),
        pytest.param(
            ', port: "use build()"}',
            "}",
            "r.yaml:9: rules[0].methods[1].port: missing field",
            id="entry-without-port",
        ),
        pytest.param(
            "{id: opt-add-slot, method: add_slot,",
            "{id: opt-get-slot, method: add_slot,",
            "rules[opt-get-slot].id: duplicate rule id",
            id="duplicate-id",
        ),
        pytest.param(
            "{id: opt-add-slot, method: add_slot,",
            "{id: opt-add-slot, method: add slot,",
            "r.yaml:9: rules[opt-add-slot].method: 'add slot'",
            id="method-name",
        ),
    ],
)
def test_errors_in_a_rule_with_methods_name_the_entry(old: str, new: str, message: str) -> None:
    assert old in FAMILY
    with pytest.raises(RulesError) as caught:
        parse_rules(FAMILY.replace(old, new), "r.yaml")
    assert message in str(caught.value)


def test_a_placeholder_in_a_rule_without_methods_is_an_error() -> None:
    with pytest.raises(RulesError, match=r"r.yaml:11: rules\[a-rule\].what: \{does\} only in"):
        parse_rules(GOOD.replace("what: gone", "what: gone, it {does}"), "r.yaml")


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


def _member_rule(classes: str) -> str:
    """A rules file of one method rule on a strategy's ``step_all`` (``classes`` its line of
    public modules, or "")."""
    return HEAD + (
        "  - id: a-member\n"
        "    method: step_all\n"
        '    receiver: "(?i)strategy$"\n'
        f"{classes}"
        '    removed_in: "2.0"\n'
        "    effect: attribute-error\n"
        "    what: gone\n"
        "    replacement: use this\n"
        "    cause: api-removed\n"
        "    sources: [notes]\n"
    )


def test_only_a_rule_naming_the_classes_modules_judges_an_object_of_a_tensorflow_class() -> None:
    named = parse_rules(_member_rule("    classes: [tf.distribute]\n"), "r.yaml")
    unnamed = parse_rules(_member_rule(""), "r.yaml")
    assert named.rules[0].classes == ("tf.distribute",)
    matrix = load_matrix(env={})
    assert ApiKnowledge(matrix, named).member("MirroredStrategy", "step_all") is not None
    # The receiver pattern alone is about a variable's name in code, not a class's.
    assert ApiKnowledge(matrix, unnamed).member("MirroredStrategy", "step_all") is None


def test_classes_without_a_method_is_an_error() -> None:
    text = GOOD.replace("    api: [tf.Session]\n", "    api: [tf.Session]\n    classes: [tf.x]\n")
    with pytest.raises(RulesError, match="only with method or attribute"):
        parse_rules(text, "r.yaml")


def test_the_strategys_renamed_method_cites_the_releases_on_both_sides_of_its_removal() -> None:
    # 2.3.0's distribute_lib.py keeps experimental_run_v2 as run's deprecated alias; 2.4.0's
    # tensorflow/python/distribute has it nowhere: the sources are those files at their tags.
    (rule,) = [r for r in load_rules().rules if r.id == "tf24-strategy-experimental-run-v2"]
    urls = [s.url for s in rule.sources]
    assert (rule.kind, rule.release) == ("removed", "2.4")
    for tag in ("v2.3.0", "v2.4.0"):
        assert any(f"/blob/{tag}/tensorflow/python/distribute/" in url for url in urls), urls


def test_a_renamed_keyword_reads_with_its_release_and_functions() -> None:
    text = GOOD.replace(
        "    api: [tf.Session]\n",
        "    api: [tf.argmax, tf.math.argmax]\n    kwarg: dimension\n    renamed_to: axis\n"
        '    renamed_in: "1.0"\n    renamed_api: [tf.argmax]\n',
    )
    (rule,) = parse_rules(text, "r.yaml").rules
    assert (rule.renamed_to, rule.renamed_in, rule.renamed_api) == ("axis", "1.0", ("tf.argmax",))


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        pytest.param("    renamed_to: axis\n", "together", id="no-release"),
        pytest.param(
            '    renamed_to: axis\n    renamed_in: "1.0"\n', "only with kwarg", id="no-kwarg"
        ),
        pytest.param(
            '    kwarg: dim\n    renamed_to: axis\n    renamed_in: "1.0"\n'
            "    renamed_api: [tf.x]\n",
            "names of api",
            id="api-outside",
        ),
    ],
)
def test_a_renamed_keyword_without_its_parts_is_an_error(fields: str, words: str) -> None:
    text = GOOD.replace("    api: [tf.Session]\n", "    api: [tf.Session]\n" + fields)
    with pytest.raises(RulesError, match=words):
        parse_rules(text, "r.yaml")
