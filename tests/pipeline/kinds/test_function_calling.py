"""The function_calling kind through `evalpipe run`: BFCL's items of several categories in one dataset (detected by
`function` + `question`), replies as bfcl-eval's result records, each category's accuracy equal to bfcl-eval's
verdicts on the same replies, BFCL's summary with n/a and its reason where categories are missing, and bad rows set
aside with file, line and reason."""
import importlib.util
import json
import shutil
from collections import Counter

import pytest

from stages.io.artifacts import read_artifact_json, read_columns
from stages.kinds.function_calling.verdicts import category_of
from tests.pipeline.workspace import REPO, run

CASES = REPO / "tests" / "stages" / "kinds" / "function_calling" / "bfcl_reference" / "cases.jsonl"


def _items(real_data, ids: set[str]) -> list[dict]:
    """The items with these ids from BFCL's published files, each with its possible answer as `ground_truth`."""
    items = []
    for category in sorted({category_of(item_id) for item_id in ids}):
        path = real_data / "bfcl" / f"BFCL_v4_{category}.json"
        answers_path = real_data / "bfcl" / "possible_answer" / path.name
        answers = {}
        if answers_path.exists():
            answers = {a["id"]: a["ground_truth"] for a in map(json.loads, answers_path.read_text().splitlines())}
        for item in map(json.loads, path.read_text().splitlines()):
            if item["id"] in ids:
                items.append({**item, **({"ground_truth": answers[item["id"]]} if item["id"] in answers else {})})
    return items


def test_each_categorys_accuracy_is_bfcl_evals_on_the_same_replies(tmp_path, real_data):
    cases = [json.loads(line) for line in CASES.read_text().splitlines()]
    chosen = {}  # one reply per item for each model: the perturbations taken in turn
    for model in ("prompting-model", "fc-model"):
        per_item: dict[str, list[dict]] = {}
        for case in cases:
            if case["model"] == model:
                per_item.setdefault(case["id"], []).append(case)
        chosen[model] = {item_id: found[index % len(found)] for index, (item_id, found) in
                         enumerate(sorted(per_item.items()))}
    folder = tmp_path / "inputs" / "bfcl"
    (folder / "predictions").mkdir(parents=True)
    items = _items(real_data, set(chosen["fc-model"]))
    (folder / "questions.jsonl").write_text("".join(json.dumps(item) + "\n" for item in items))
    for model, replies in chosen.items():
        (folder / "predictions" / f"{model}.jsonl").write_text(
            "".join(json.dumps({"id": case["id"], "result": case["result"]}) + "\n" for case in replies.values()))
    assert run(tmp_path) == 0
    report = read_artifact_json(tmp_path / "outputs" / "bfcl" / "B6_report.json")["report"]
    for model, replies in chosen.items():
        expected: dict[str, Counter] = {}
        for case in replies.values():
            expected.setdefault(category_of(case["id"]), Counter())[case["valid"]] += 1
        found = report["models"][model]
        assert {name: (f["correct"], f["count"]) for name, f in found["by_category"].items()} == {
            name: (tally[True], tally[True] + tally[False]) for name, tally in expected.items()}
        b4 = read_columns(tmp_path / "outputs" / "bfcl" / model / "B4_matches.json")
        by_id = {case["id"]: case for case in replies.values()}
        assert [(by_id[i]["valid"], by_id[i]["error_type"]) for i in b4["id"]] == [
            (valid, None if valid else error) for valid, error in zip(b4["valid"], b4["error_type"])]
        summary = found["summary"]
        simple = [found["by_category"][n]["accuracy"] for n in ("simple_python", "simple_java", "simple_javascript")]
        four = [sum(simple) / 3, *(found["by_category"][n]["accuracy"] for n in ("multiple", "parallel",
                                                                                 "parallel_multiple"))]
        assert summary["non_live_ast"]["value"] == pytest.approx(sum(four) / 4)
        live = [found["by_category"][n] for n in ("live_simple", "live_multiple", "live_parallel",
                                                   "live_parallel_multiple")]
        assert summary["live"]["value"] == pytest.approx(sum(f["correct"] for f in live) / sum(f["count"] for f in live))
        assert summary["irrelevance"]["value"] == pytest.approx(
            (found["by_category"]["irrelevance"]["accuracy"] + found["by_category"]["live_irrelevance"]["accuracy"]) / 2)
        assert summary["multi_turn"]["value"] is None and "multi_turn_base" in summary["multi_turn"]["reason"]
        assert summary["overall"]["value"] is None and "live services" in summary["overall"]["reason"]
        low, high = found["by_category"]["simple_python"]["interval"]
        assert low <= found["by_category"]["simple_python"]["accuracy"] <= high


@pytest.mark.skipif(importlib.util.find_spec("bfcl_eval") is not None, reason="bfcl-eval installed: multi-turn runs")
def test_bad_rows_are_set_aside_with_file_line_and_reason(tmp_path, real_data):
    """Without bfcl-eval installed, a multi-turn item is refused in one line giving the command that installs it."""
    folder = tmp_path / "inputs" / "bfcl"
    (folder / "predictions").mkdir(parents=True)
    (folder / "possible_answer").mkdir()
    source = real_data / "bfcl" / "BFCL_v4_simple_python.json"
    lines = source.read_text().splitlines()[:3]
    no_answer = {**json.loads(lines[2]), "id": "simple_python_9999"}
    multi_turn = json.loads((real_data / "bfcl" / "BFCL_v4_multi_turn_base.json").read_text().splitlines()[0])
    (folder / "questions.json").write_text(
        "\n".join([lines[0], lines[1], "{not json", json.dumps(no_answer), json.dumps(multi_turn)]) + "\n")
    shutil.copy(real_data / "bfcl" / "possible_answer" / source.name, folder / "possible_answer" / "questions.json")
    (folder / "dataset.toml").write_text("max_rejected_share = 0.9\n")  # no kind named: detected
    replies = ['{"id": "simple_python_0", "result": "[calculate_triangle_area(base=10, height=5)]"}',
               '{"id": "simple_python_1", "result": 12}', "not json at all"]
    (folder / "predictions" / "m.json").write_text("\n".join(replies) + "\n")
    assert run(tmp_path) == 0
    rejects = read_artifact_json(tmp_path / "outputs" / "bfcl" / "B1_questions.json")["rejects"]
    assert [(r["line"], r["reason"].split(" (")[0].split(":")[0]) for r in rejects] == [
        (3, "malformed JSON at column 2"), (4, "no possible answer for simple_python_9999"),
        (5, "multi-turn episodes run against bfcl-eval's mock APIs")]
    assert rejects[2]["reason"].endswith("`pip install --no-deps bfcl-eval==2026.3.23 mpmath`")
    rejects = read_artifact_json(tmp_path / "outputs" / "bfcl" / "m" / "B2_predictions.json")["rejects"]
    assert [(r["line"], r["reason"].split(":")[0]) for r in rejects] == [(2, "wrong type"), (3, "malformed JSON at column 1")]
    found = read_artifact_json(tmp_path / "outputs" / "bfcl" / "B6_report.json")["report"]["models"]["m"]
    assert found["by_category"]["simple_python"]["count"] == 2 and found["rows"] == 2
    b4 = read_columns(tmp_path / "outputs" / "bfcl" / "m" / "B4_matches.json")
    assert dict(zip(b4["id"], b4["error_type"])) == {"simple_python_0": None, "simple_python_1": "no_reply"}


EPISODES = CASES.with_name("episodes.jsonl")


def test_multi_turn_episodes_run_on_bfcl_evals_mock_apis_scored_as_bfcl_eval(tmp_path, real_data):
    """With bfcl-eval installed, multi-turn items are scored: each category's accuracy is bfcl-eval's on the same
    results, and Multi Turn is the mean of the four."""
    pytest.importorskip("bfcl_eval.eval_checker.multi_turn_eval.func_source_code.gorilla_file_system")
    per_item: dict[str, list[dict]] = {}
    for case in map(json.loads, EPISODES.read_text().splitlines()):
        if case["model"] == "prompting-model":
            per_item.setdefault(case["id"], []).append(case)
    chosen = {item_id: found[index % len(found)] for index, (item_id, found) in enumerate(sorted(per_item.items()))}
    folder = tmp_path / "inputs" / "bfcl"
    (folder / "predictions").mkdir(parents=True)
    (folder / "questions.jsonl").write_text("".join(json.dumps(item) + "\n" for item in _items(real_data, set(chosen))))
    (folder / "predictions" / "m.jsonl").write_text(
        "".join(json.dumps({"id": case["id"], "result": case["result"]}) + "\n" for case in chosen.values()))
    assert run(tmp_path) == 0
    found = read_artifact_json(tmp_path / "outputs" / "bfcl" / "B6_report.json")["report"]["models"]["m"]
    expected: dict[str, Counter] = {}
    for case in chosen.values():
        expected.setdefault(category_of(case["id"]), Counter())[case["valid"]] += 1
    assert {name: (f["correct"], f["count"]) for name, f in found["by_category"].items()} == {
        name: (tally[True], tally[True] + tally[False]) for name, tally in expected.items()}
    assert found["summary"]["multi_turn"]["value"] == pytest.approx(
        sum(f["accuracy"] for f in found["by_category"].values()) / 4)
