"""Fact verification end to end on other vocabularies: HoVer's labels without configuration, LIAR's six classes and
NLI labels through label_map, and graded gold verdicts that fail the run instead of leaving the denominator."""
from pathlib import Path

from sklearn.metrics import accuracy_score, precision_recall_fscore_support

from stages.io.artifacts import read_artifact_json, read_columns
from tests.pipeline.workspace import run, write_jsonl

HOVER_GOLD = ["SUPPORTED", "NOT_SUPPORTED", "NOT_SUPPORTED", "SUPPORTED", "NOT_SUPPORTED", "SUPPORTED"]
HOVER_REPLIES = ["SUPPORTED", "not_supported", "The claim is supported.", "No", "Verdict: NOT-SUPPORTED",
                 "It is mostly true."]


def _dataset(root: Path, name: str, golds: list[str], replies: list[str], toml: str) -> None:
    folder = root / "inputs" / name
    write_jsonl(folder / "questions.jsonl", [{"id": f"c{i}", "claim": f"claim {i}", "label": g}
                                             for i, g in enumerate(golds)])
    write_jsonl(folder / "predictions" / "m.jsonl", [{"id": f"c{i}", "prediction": r} for i, r in enumerate(replies)])
    (folder / "dataset.toml").write_text(toml, encoding="utf-8")


def _outputs(root: Path, name: str, stage_file: str) -> dict:
    return read_artifact_json(root / "outputs" / name / "m" / stage_file)


def test_hover_labels_read_without_configuration(tmp_path):
    _dataset(tmp_path, "hover_dev", HOVER_GOLD, HOVER_REPLIES, "")  # the name says hover: detected
    assert run(tmp_path) == 0
    b1 = read_artifact_json(tmp_path / "outputs" / "hover_dev" / "B1_questions.json")
    assert b1["header"]["kind"] == "fact_verification"
    assert b1["header"]["counts"]["rejected"] == 0
    rows = read_columns(tmp_path / "outputs" / "hover_dev" / "m" / "B4_matches.json")
    assert rows["gold_label"] == ["T", "F", "F", "T", "F", "T"]
    assert rows["predicted_label"] == ["T", "F", "T", "F", "F", "unparsed"]
    assert rows["rule"] == ["exact", "exact", "keyword_reply", "exact", "labeled_exact", "graded"]
    metrics = _outputs(tmp_path, "hover_dev", "B5_component_scores.json")["metrics"]
    assert metrics["accuracy"] == accuracy_score(rows["gold_label"], rows["predicted_label"]) == 3 / 6
    assert metrics["rules"] == {"exact": 3, "keyword_reply": 1, "labeled_exact": 1, "graded": 1}


def test_label_map_gives_a_dataset_its_own_classes(tmp_path):
    liar = ["true", "mostly-true", "half-true", "barely-true", "false", "pants-fire"]
    golds = liar * 2
    replies = ["TRUE", "Mostly True", "half true", "barely_true", "False", "pants-fire",
               "mostly-true", "half-true", "T", "I do not know", "pants-fire", "false"]
    table = "".join(f'"{name}" = "{name}"\n' for name in liar)
    _dataset(tmp_path, "liar", golds, replies, f'kind = "fact_verification"\n[params.label_map]\n{table}')
    assert run(tmp_path) == 0
    rows = read_columns(tmp_path / "outputs" / "liar" / "m" / "B4_matches.json")
    classes = ["T", "mostly-true", "half-true", "barely-true", "F", "pants-fire"]
    assert rows["gold_label"] == classes * 2
    assert rows["predicted_label"] == classes + ["mostly-true", "half-true", "T", "unparsed", "pants-fire", "F"]
    metrics = _outputs(tmp_path, "liar", "B5_component_scores.json")["metrics"]
    labels = metrics["labels"]
    assert labels == ["T", "F", "barely-true", "half-true", "mostly-true", "pants-fire", "unparsed"]
    precision, recall, f1, support = precision_recall_fscore_support(
        rows["gold_label"], rows["predicted_label"], labels=labels, zero_division=0)
    for i, label in enumerate(labels):
        got = metrics["per_class"][label]
        assert (got["precision"], got["recall"], got["f1"], got["support"]) == (
            precision[i], recall[i], f1[i], support[i]), label
    matrix = metrics["confusion_matrix"]  # predicted → true
    assert (matrix["mostly-true"]["T"], matrix["half-true"]["mostly-true"], matrix["T"]["half-true"]) == (1, 1, 1)


def test_nli_labels_map_onto_the_three_verdicts(tmp_path):
    golds = ["entailment", "contradiction", "neutral", "entailment"]
    replies = ["entailment", "SUPPORTS", "neutral", "不成立"]
    _dataset(tmp_path, "nli_claims", golds, replies, 'kind = "fact_verification"\n[params.label_map]\n'
             'entailment = "SUPPORTS"\ncontradiction = "REFUTES"\nneutral = "NOT ENOUGH INFO"\n')
    assert run(tmp_path) == 0
    rows = read_columns(tmp_path / "outputs" / "nli_claims" / "m" / "B4_matches.json")
    assert rows["gold_label"] == ["T", "F", "uncertain", "T"]
    assert rows["predicted_label"] == ["T", "T", "uncertain", "F"]
    assert rows["rule"] == ["label_map", "exact", "label_map", "exact"]


def test_graded_gold_verdicts_fail_the_run_naming_label_map(tmp_path, capsys):
    golds = ["SUPPORTS", "REFUTES", "mostly true", "REFUTES"]
    _dataset(tmp_path, "claims", golds, ["SUPPORTS"] * 4, 'kind = "fact_verification"\n')
    assert run(tmp_path) == 1
    b1 = read_artifact_json(tmp_path / "outputs" / "claims" / "B1_questions.json")
    assert [(r["line"], r["reason"]) for r in b1["rejects"]] == [
        (3, "gold verdict not readable: 'mostly true' is not T / F / uncertain (graded; label_map in dataset.toml "
            "[params] can map it)")]
    err = capsys.readouterr().err
    assert "PROBLEM claims: 1 question set aside: gold verdict not readable" in err
    html = (tmp_path / "outputs" / "report.html").read_text(encoding="utf-8")
    assert "Not fit to publish" in html and "<strong>claims</strong>: 1 question set aside: gold verdict" in html


def test_a_changed_label_map_reruns_from_b1(tmp_path):
    golds, replies = ["yes", "no"], ["entailment", "contradiction"]
    _dataset(tmp_path, "claims", golds, replies, 'kind = "fact_verification"\n')
    assert run(tmp_path) == 0
    assert read_columns(tmp_path / "outputs" / "claims" / "m" / "B4_matches.json")["predicted_label"] == [
        "unparsed", "unparsed"]
    (tmp_path / "inputs" / "claims" / "dataset.toml").write_text(
        'kind = "fact_verification"\n[params.label_map]\nentailment = "T"\ncontradiction = "F"\n')
    assert run(tmp_path) == 0
    assert read_columns(tmp_path / "outputs" / "claims" / "m" / "B4_matches.json")["predicted_label"] == ["T", "F"]
    assert _outputs(tmp_path, "claims", "B5_component_scores.json")["metrics"]["accuracy"] == 1.0
