"""The function_calling kind's own small fixture (tests/stages/kinds/function_calling/conformance: four made-up items of
four categories, a prompting and a function-calling model) through `evalpipe run`, hermetic: each verdict worked out
by BFCL's rules by hand (and bfcl-eval 2026.3.23 gives the same eight)."""
import shutil

import pytest

from stages.io.artifacts import read_artifact_json, read_columns
from tests.pipeline.workspace import REPO, run

FIXTURE = REPO / "tests" / "stages" / "kinds" / "function_calling" / "conformance"


def test_the_fixture_scores_as_bfcls_rules_say(tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "inputs" / "tools")  # no dataset.toml: detected by question + function
    assert run(tmp_path) == 0
    report = read_artifact_json(tmp_path / "outputs" / "tools" / "B6_report.json")["report"]
    verdicts = {}
    for model in ("prompting", "function-calling"):
        b4 = read_columns(tmp_path / "outputs" / "tools" / model / "B4_matches.json")
        verdicts[model] = dict(zip(b4["id"], zip(b4["valid"], b4["error_type"])))
    assert verdicts["prompting"] == {
        "simple_python_0": (True, None),  # 'paris , france' is "Paris, France" once spaces and commas go; unit optional
        "parallel_0": (True, None),  # both calls, in the other order; an int for a float
        "simple_java_0": (False, "type_error:simple"),  # Java's long is written 60L: "60" stays text
        "irrelevance_0": (True, None)}  # no call decodes from prose
    assert verdicts["function-calling"] == {
        "simple_python_0": (False, "value_error:string"),  # Lyon
        "parallel_0": (False, "parallel_function_checker_no_order:wrong_count"),
        "simple_java_0": (True, None),  # weather_current-style names: Cache_put is Cache.put; "60L" a long
        "irrelevance_0": (False, "irrelevance_error:decoder_success")}
    prompting = report["models"]["prompting"]
    assert prompting["accuracy"] == pytest.approx(0.75)
    assert {name: f["correct"] for name, f in prompting["by_category"].items()} == {
        "simple_python": 1, "simple_java": 0, "parallel": 1, "irrelevance": 1}
    assert prompting["summary"]["non_live_ast"] == {"value": None,
                                                    "reason": "not scored: simple_javascript, multiple, "
                                                              "parallel_multiple"}
    assert report["models"]["function-calling"]["accuracy"] == pytest.approx(0.25)
