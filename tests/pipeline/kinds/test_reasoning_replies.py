"""Reasoning replies in every kind: each reads the answer after the reasoning, a reply that never closes it is scored
as no answer and counted per model on the console and in the report; generation keeps finish_reason and the
reasoning a server returns apart."""
import json

import pytest

from pipeline.cli import main
from stages.io.artifacts import read_artifact_json, read_columns
from tests.pipeline.chat_server import ChatServer
from tests.pipeline.workspace import write_jsonl

DATASETS = {  # kind → (questions, replies after the reasoning, the reasoning's own misleading answers, metric)
    "qa": ([{"id": "1", "question": "Capital of France?", "answers": ["Paris"]},
            {"id": "2", "question": "Largest planet?", "answers": ["Jupiter"]},
            {"id": "3", "question": "首都？", "answers": ["北京"]}],
           ["Paris", "Jupiter", "北京"], ["Rome", "Saturn", "上海"], "exact_match"),
    "multiple_choice": ([{"id": "1", "question": "2 + 2 = ?", "options": ["3", "4", "5"], "answer": "B"},
                         {"id": "2", "question": "Sky?", "options": ["blue", "green"], "answer": "A"},
                         {"id": "3", "question": "水果？", "options": ["苹果", "石头"], "answer": "A"}],
                        ["B", "A", "A"], ["The answer is C", "B", "答案是B"], "accuracy"),
    "numeric": ([{"id": "1", "question": "Legs of a spider?", "answer": "8"},
                 {"id": "2", "question": "Days in a week?", "answer": "7"},
                 {"id": "3", "question": "一打？", "answer": "12"}],
                ["8", "7", "12"], ["maybe 6", "5 or 6", "10"], "accuracy"),
    "fact_verification": ([{"id": "1", "claim": "Water is wet.", "label": "SUPPORTS"},
                           {"id": "2", "claim": "The moon is cheese.", "label": "REFUTES"},
                           {"id": "3", "claim": "地球是平的。", "label": "REFUTES"}],
                          ["SUPPORTS", "REFUTES", "不成立"], ["REFUTES", "SUPPORTS", "成立"], "accuracy"),
    "math": ([{"id": "1", "problem": "Half of one?", "answer": "\\frac{1}{2}"},
              {"id": "2", "problem": "AIME-style", "expected_answer": "70"},
              {"id": "3", "problem": "三分之二？", "answer": "\\frac{2}{3}"}],
             ["The answer is $0.5$.", "\\boxed{70}", "最终答案：三分之二"], ["\\boxed{2}", "\\boxed{71}", "\\boxed{1}"],
             "accuracy"),
}


def _write(root, kind, replies, toml=""):
    questions = DATASETS[kind][0]
    folder = root / "inputs" / kind
    write_jsonl(folder / "questions.jsonl", questions)
    write_jsonl(folder / "predictions" / "m.jsonl", [{"id": q["id"], "prediction": r}
                                                      for q, r in zip(questions, replies)])
    (folder / "dataset.toml").write_text(f'kind = "{kind}"\n{toml}', encoding="utf-8")


def _metric(root, kind, name):
    return read_artifact_json(root / "outputs" / kind / "B6_report.json")["report"]["models"]["m"][name]


@pytest.mark.parametrize("kind", list(DATASETS))
def test_every_kind_reads_the_answer_after_the_reasoning(tmp_path, kind, capsys):
    _, answers, misleading, metric = DATASETS[kind]
    replies = [f"<think>Maybe {wrong}. Hmm, {wrong}?</think>\n\n{right}" for right, wrong in zip(answers, misleading)]
    replies[2] = f"<think>Let me see: {misleading[2]} … {answers[2]}"  # the reasoning never closes
    _write(tmp_path, kind, replies)
    assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")]) == 0
    assert _metric(tmp_path, kind, metric) == pytest.approx(2 / 3)
    assert "m: 1 of 3 replies end inside their reasoning (scored as no answer)" in capsys.readouterr().err
    report = read_artifact_json(tmp_path / "outputs" / kind / "B6_report.json")["report"]
    assert report["replies"]["m"] == {"replies": 3, "unfinished_reasoning": 1, "cut_at_max_tokens": 0}
    page = (tmp_path / "outputs" / "report.html").read_text(encoding="utf-8")
    assert "m: 1 of 3 replies end inside their reasoning" in page


def test_the_tags_are_configurable(tmp_path):
    replies = ["[THINK]Rome[/THINK] Paris", "[THINK]Saturn", "<think>北京</think>"]
    _write(tmp_path, "qa", replies, '[reasoning]\nopen = "[THINK]"\nclose = "[/THINK]"\n')
    assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")]) == 0
    assert _metric(tmp_path, "qa", "exact_match") == pytest.approx(1 / 3)
    counts = read_artifact_json(tmp_path / "outputs" / "qa" / "m" / "B3_normalized.json")["header"]["counts"]
    assert (counts["closed_reasoning"], counts["unfinished_reasoning"]) == (1, 1)  # <think> is not this model's tag


def test_numeric_refuses_latex_golds_and_does_not_read_latex_replies(tmp_path, capsys):
    folder = tmp_path / "inputs" / "num"
    write_jsonl(folder / "questions.jsonl", [{"id": "1", "question": "half", "answer": "\\frac{1}{2}"},
                                             {"id": "2", "question": "two", "answer": "2\\sqrt{2}"},
                                             {"id": "3", "question": "three", "answer": "3"},
                                             {"id": "4", "question": "four", "answer": "4"}])
    write_jsonl(folder / "predictions" / "m.jsonl", [{"id": "1", "prediction": "0.5"},
                                                      {"id": "2", "prediction": "3\\sqrt{2}"},
                                                      {"id": "3", "prediction": "$3\\sqrt{2}$"},
                                                      {"id": "4", "prediction": "4"}])
    (folder / "dataset.toml").write_text('kind = "numeric"\n')
    main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")])
    rejects = read_artifact_json(tmp_path / "outputs" / "num" / "B1_questions.json")["rejects"]
    assert [r["line"] for r in rejects] == [1, 2]
    assert all('kind = "math"' in r["reason"] for r in rejects)
    matched = read_columns(tmp_path / "outputs" / "num" / "m" / "B4_matches.json")
    assert matched["label"] == ["wrong", "correct"]
    assert 'kind = "math"' in matched["predicted_rule"][0] and matched["predicted_value"][0] is None


def test_generation_keeps_finish_reason_and_reasoning_apart(tmp_path, capsys):
    questions = [{"id": "1", "question": "Capital of France?", "answers": ["Paris"]},
                 {"id": "2", "question": "Largest planet?", "answers": ["Jupiter"]},
                 {"id": "3", "question": "Author of Emma?", "answers": ["Jane Austen"]}]
    folder = tmp_path / "inputs" / "live"
    write_jsonl(folder / "questions.jsonl", questions)
    with ChatServer() as server:
        server.replies = {"France": "Paris", "planet": "", "Emma": "Jane"}
        server.reasoning = lambda message: (("It is Paris.", "stop") if "France" in message else
                                            ("Jupiter is the larg", "length") if "planet" in message else
                                            ("Jane Austen wrote", "length"))
        (folder / "dataset.toml").write_text(
            f'kind = "qa"\n[generate]\nprotocol = "openai"\nurl = "{server.url}"\nmodels = ["m"]\nretries = 0\n')
        assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")]) == 0
    predictions = read_columns(tmp_path / "outputs" / "live" / "m" / "B2_predictions.json")
    assert predictions["finish_reason"] == ["stop", "length", "length"]
    assert predictions["reasoning_content"] == ["It is Paris.", "Jupiter is the larg", "Jane Austen wrote"]
    assert predictions["prediction"] == ["Paris", "", "Jane"]
    report = read_artifact_json(tmp_path / "outputs" / "live" / "B6_report.json")["report"]
    assert report["replies"]["m"] == {"replies": 3, "unfinished_reasoning": 1, "cut_at_max_tokens": 2}
    assert report["models"]["m"]["exact_match"] == pytest.approx(1 / 3)
    err = capsys.readouterr().err
    assert "m: 1 of 3 replies end inside their reasoning" in err
    assert "m: 2 of 3 replies were cut at max_tokens" in err
    journal = [json.loads(line) for line in (tmp_path / "outputs" / "live" / "m" / "B2_generated.jsonl")
               .read_text().splitlines()]
    assert {r["finish_reason"] for r in journal} == {"stop", "length"}
