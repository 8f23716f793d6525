"""The judge ([judge] in dataset.toml) against a scripted judge judge_server on 127.0.0.1: verdicts in every form the
parser reads, unparsed replies kept and never counted, the journal (a rerun asks nothing, a changed rubric asks only
its criterion), 429s with Retry-After, and config mistakes refused in one line."""
import json
from pathlib import Path

import pytest

from pipeline.cli import main
from stages.io.artifacts import read_artifact_json, read_columns
from tests.pipeline.judge.capitals import SECRET, capitals_dataset
from tests.pipeline.workspace import run


def _judge(workspace: Path) -> dict:
    return read_artifact_json(workspace / "outputs/capitals/m/B5_judge.json")


def test_verdicts_parse_in_every_form_and_unparsed_ones_are_kept_not_counted(tmp_path, judge_server, capsys):
    workspace = capitals_dataset(tmp_path, judge_server, 'criteria = ["correct", "score_1_5"]\n')
    judge_server.faults = [("429", 0.05), "malformed"]  # told to wait, then a reply that is not JSON: both asked again
    assert run(workspace) == 0
    judged = _judge(workspace)
    table = {(r["id"], r["criterion"]): r for r in _rows(workspace)}
    assert table[("q1", "correct")]["value"] == 1.0 and table[("q1", "correct")]["reason"] == "names Paris"
    assert table[("q2", "correct")]["value"] == 0.0 and table[("q2", "correct")]["reason"] == "Milan is not Rome."
    assert table[("q3", "correct")]["labels"] == ["NOT_ATTEMPTED"] and table[("q3", "correct")]["value"] == 0.0
    assert table[("q4", "correct")]["value"] is None
    assert table[("q4", "correct")]["unparsed"] == ["Hard to say; it depends."]
    assert table[("q5", "correct")]["value"] == 1.0 and table[("q5", "correct")]["reason"] == "与标准答案一致"
    assert [table[(i, "score_1_5")]["value"] for i in ("q1", "q2", "q3", "q4", "q5")] == [4.0, 4.0, 4.0, 4.0, 5.0]
    correct = judged["summary"]["correct"]
    assert correct["mean"] == pytest.approx(2 / 4) and correct["n"] == 4 and correct["items"] == 5
    assert correct["parse_rate"] == pytest.approx(4 / 5) and correct["unparsed"] == 1
    assert correct["labels"] == {"CORRECT": 2, "INCORRECT": 1, "NOT_ATTEMPTED": 1}
    assert correct["interval"]["method"] == "Wilson score"
    assert judged["summary"]["score_1_5"]["mean"] == pytest.approx(21 / 5)
    assert judged["summary"]["score_1_5"]["interval"]["method"].startswith("percentile bootstrap")
    calls = [r for r in judge_server.requests if r["path"] == "/v1/chat/completions"]
    assert len(calls) == 12  # 10 calls, two of them asked again (after the 429 and the malformed reply)
    assert all(r["authorization"] == f"Bearer {SECRET}" and r["body"]["temperature"] == 0 for r in calls)
    zh = next(r for r in calls if "法国" in r["body"]["messages"][-1]["content"])
    assert "待评回答：巴黎" in zh["body"]["messages"][-1]["content"]  # the Chinese rubric for a Chinese item
    assert all(r["body"]["messages"][-1]["content"].count("capital of France") == 1
               for r in calls if "capital of France" in r["body"]["messages"][-1]["content"])  # shown once
    report = read_artifact_json(workspace / "outputs/capitals/B6_report.json")["report"]
    assert report["judge"]["models"]["m"]["correct"]["mean"] == pytest.approx(0.5)
    text = (workspace / "outputs/capitals/B6_report.txt").read_text()
    assert "judge judge-1 on m: correct 0.5000" in text and "parsed 80.0%" in text
    page = (workspace / "outputs/report.html").read_text()
    assert "Judged by judge-1" in page and "<td>correct</td>" in page
    for path in (workspace / "outputs").rglob("*"):
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes(), path
    assert SECRET not in capsys.readouterr().err


def _rows(workspace: Path) -> list[dict]:
    columns = read_columns(workspace / "outputs/capitals/m/B5_judge.json")
    return [dict(zip(columns, values)) for values in zip(*columns.values())]


def test_the_journal_asks_nothing_again_and_a_changed_rubric_only_its_criterion(tmp_path, judge_server):
    workspace = capitals_dataset(tmp_path, judge_server, 'criteria = ["correct", "score_1_5"]\n')
    assert run(workspace) == 0
    asked = len(judge_server.requests)
    assert run(workspace) == 0 and len(judge_server.requests) == asked  # nothing changed: nothing asked
    toml = workspace / "inputs/capitals/dataset.toml"
    toml.write_text("max_rejected_share = 0.4\n" + toml.read_text())
    assert run(workspace) == 0 and len(judge_server.requests) == asked  # a report threshold asks nothing
    toml.write_text(toml.read_text().replace(
        'criteria = ["correct", "score_1_5"]\n',
        'criteria = ["correct", "score_1_5"]\n[judge.rubrics]\n'
        'score_1_5 = "Rate it from 1 to 5: {prediction} (reference {expected})"\n'))
    assert run(workspace) == 0
    again = [r["body"]["messages"][-1]["content"] for r in judge_server.requests[asked:]]
    assert len(again) == 5 and all(text.startswith("Rate it from 1 to 5: ") for text in again)


@pytest.mark.parametrize(("judge", "message"), [
    ('criteria = ["correct"]\npairs = true\n', "unknown [judge] key(s) pairs"),
    ('criteria = ["helpful"]\n', "criterion 'helpful' is not built in"),
    ('criteria = ["correct"]\n[judge.rubrics]\ncorrect = "Grade {answer}"\n', "rubric names {answer}"),
    ('criteria = ["correct"]\ntemperature = -1\n', "temperature = -1 must be a number"),
    ('temperature = 0\n', "criteria must be a list of names (non-empty"),  # only a kind asking in B4 leaves it out
])
def test_config_mistakes_are_one_line_and_exit_2(tmp_path, judge_server, capsys, judge, message):
    workspace = capitals_dataset(tmp_path, judge_server, judge)
    assert run(workspace) == 1
    err = capsys.readouterr().err
    assert len([line for line in err.splitlines() if line.startswith("PROBLEM ")]) == 1 and message in err, err
    assert not [r for r in judge_server.requests if r["path"] == "/v1/chat/completions"]


def test_a_panel_with_samples_reports_self_agreement(tmp_path, judge_server):
    workspace = capitals_dataset(tmp_path, judge_server, 'criteria = ["correct"]\nsamples = 2\nseed = 7\n')
    toml = workspace / "inputs/capitals/dataset.toml"
    toml.write_text(toml.read_text().replace('model = "judge-1"', 'models = ["judge-1", "judge-2"]'))
    assert run(workspace) == 0
    calls = [r["body"] for r in judge_server.requests if r["path"] == "/v1/chat/completions"]
    assert len(calls) == 5 * 2 * 2
    assert sorted({(c["model"], c["seed"]) for c in calls}) == [("judge-1", 7), ("judge-1", 8), ("judge-2", 7),
                                                                ("judge-2", 8)]
    summary = _judge(workspace)["summary"]["correct"]
    assert summary["self_agreement"] == 1.0  # the scripted judges answer the same every time
    assert summary["mean"] == pytest.approx(2 / 4) and summary["replies"] == 20 and summary["unparsed"] == 4


def test_a_judge_killed_mid_run_resumes_where_it_stopped(tmp_path, judge_server):
    import signal
    import subprocess
    import sys
    import time

    from tests.pipeline.servers import REPO

    many = [(f"q{i}", f"Question number {i}?", [f"answer {i}"]) for i in range(40)]
    folder = capitals_dataset(tmp_path, judge_server, 'criteria = ["correct"]\nconcurrency = 2\n') / "inputs" / "capitals"
    (folder / "questions.jsonl").write_text("".join(
        json.dumps({"id": i, "question": q, "answers": a}) + "\n" for i, q, a in many))
    (folder / "predictions" / "m.jsonl").write_text("".join(
        json.dumps({"id": i, "prediction": f"my answer {n}"}) + "\n" for n, (i, _, _) in enumerate(many)))
    judge_server.replies["Answer to grade: my answer"] = "Verdict: INCORRECT"
    judge_server.faults = [("delay", 0.1)] * 200
    journal = tmp_path / "outputs/capitals/m/B5_judge_calls.jsonl"
    command = [sys.executable, "-m", "pipeline", "run", "--inputs", str(tmp_path / "inputs"), "--outputs",
               str(tmp_path / "outputs")]
    run = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while (not journal.exists() or len(journal.read_bytes().splitlines()) < 10) and time.monotonic() < deadline:
        time.sleep(0.02)
    run.send_signal(signal.SIGKILL)
    run.wait()
    kept = len(journal.read_bytes().splitlines())
    assert 10 <= kept < 40
    before = len(judge_server.requests)
    assert subprocess.run(command, cwd=REPO, capture_output=True).returncode == 0
    assert len(judge_server.requests) - before == 40 - kept  # only what the journal did not hold is asked
    summary = _judge(tmp_path)["summary"]["correct"]
    assert summary["mean"] == 0.0 and summary["n"] == 40 and summary["parse_rate"] == 1.0


PAIRWISE_REPLIES = {  # m against n; the first key the prompt contains decides the reply
    "Answer A: It is Paris.": "[[A]]", "Answer B: It is Paris.": "[[B]]",  # q1: m better, in both orders
    "Answer A: Rome": '{"reason": "Rome is right", "verdict": "A"}', "Answer B: Rome": "Verdict: B",  # q2: n better
    "Answer A: I am not sure.": "[[A]]", "Answer A: Shakespeare": "[[A]]",  # q3: prefers the first position
    "Answer A: four-ish": "[[TIE]]", "Answer A: 4": "[[TIE]]",  # q4: a tie in both orders
    "回答 A：巴黎": "无法判断",  # q5: unparsed in both orders
}


def test_pairwise_asks_both_orders_and_a_flip_is_a_tie(tmp_path, judge_server):
    from scipy.stats import binomtest

    workspace = capitals_dataset(tmp_path, judge_server, "pairwise = true\n")
    folder = workspace / "inputs/capitals"
    (folder / "predictions" / "n.jsonl").write_text("".join(
        json.dumps({"id": i, "prediction": p}, ensure_ascii=False) + "\n"
        for i, p in {"q1": "Lyon", "q2": "Rome", "q3": "Shakespeare", "q4": "4", "q5": "巴黎"}.items()),
        encoding="utf-8")
    judge_server.replies.clear()
    judge_server.replies.update(PAIRWISE_REPLIES)
    assert run(workspace) == 0
    asked = [r["body"]["messages"][-1]["content"] for r in judge_server.requests]
    assert len(asked) == 5 * 2
    q1 = [text for text in asked if "capital of France" in text]
    assert sorted(t.split("Answer A: ")[1].split("\n")[0] for t in q1) == ["It is Paris.", "Lyon"]  # both orders
    assert not (workspace / "outputs/capitals/m/B5_judge.json").exists()  # no criteria: no B5J
    document = read_artifact_json(workspace / "outputs/capitals/B5_pairwise.json")
    columns = read_columns(workspace / "outputs/capitals/B5_pairwise.json")
    outcome = dict(zip(columns["id"], columns["outcome"]))
    assert outcome == {"q1": "first", "q2": "second", "q3": "tie", "q4": "tie", "q5": None}
    assert dict(zip(columns["id"], columns["reason"]))["q2"] == "Rome is right"
    pair = document["summary"][0]
    assert (pair["first"], pair["second"], pair["items"], pair["n"]) == ("m", "n", 5, 4)
    assert (pair["wins"], pair["ties"], pair["losses"]) == (1, 2, 1)
    assert pair["win_rate"] == 0.25 and pair["tie_rate"] == 0.5
    low, high = binomtest(1, 4).proportion_ci(method="wilson")
    assert pair["win_interval"]["low"] == pytest.approx(low) and pair["win_interval"]["high"] == pytest.approx(high)
    assert pair["position_consistency"] == pytest.approx(3 / 4)  # q3's verdict followed the position
    assert pair["parse_rate"] == pytest.approx(8 / 10) and pair["unparsed"] == 2
    report = read_artifact_json(workspace / "outputs/capitals/B6_report.json")["report"]
    assert report["pairwise"]["pairs"][0]["wins"] == 1
    text = (workspace / "outputs/capitals/B6_report.txt").read_text()
    assert "judge judge-1, m against n: wins 25.0% [" in text and "position consistency 75.0%" in text
    assert "Pairwise, judged by judge-1" in (workspace / "outputs/report.html").read_text()
    assert run(workspace) == 0 and len(judge_server.requests) == 10  # the journal answers a rerun


def test_pairwise_needs_two_models(tmp_path, judge_server, capsys):
    workspace = capitals_dataset(tmp_path, judge_server, "pairwise = true\n")
    assert run(workspace) == 1
    err = capsys.readouterr().err
    assert len([line for line in err.splitlines() if line.startswith("PROBLEM ")]) == 1 and \
        "pairwise = true compares models" in err, err


def test_judge_criteria_are_paired_nightly_metrics_and_a_changed_rubric_is_not_comparable(tmp_path, judge_server):
    import pyarrow.parquet as pq

    workspace = capitals_dataset(tmp_path, judge_server, 'criteria = ["correct", "score_1_5"]\n')

    def night(date: str) -> dict:
        main(["nightly", "--date", date, "--inputs", str(workspace / "inputs"), "--outputs",
              str(workspace / "outputs")])
        document = read_artifact_json(workspace / f"outputs/nightly/{date}/regressions.json")
        return {c["metric"]: c for c in document["comparisons"] if c["metric"].startswith("judge:")}

    assert night("2026-11-01") == {}
    items = pq.read_table(workspace / "outputs/nightly/2026-11-01/item_scores.parquet").to_pylist()
    correct = {r["id"]: r["value"] for r in items if r["metric"] == "judge:correct"}
    assert correct == {"q1": 1.0, "q2": 0.0, "q3": 0.0, "q4": None, "q5": 1.0}
    judge_server.replies["Answer to grade: Lyon"] = "Verdict: INCORRECT"  # tonight m answers q1 wrong
    answers = workspace / "inputs/capitals/predictions/m.jsonl"
    answers.write_text(answers.read_text(encoding="utf-8").replace("It is Paris.", "Lyon"), encoding="utf-8")
    toml = workspace / "inputs/capitals/dataset.toml"
    toml.write_text(toml.read_text() + '[judge.rubrics]\nscore_1_5 = "Rate it from 1 to 5: {prediction}"\n')
    asked = len(judge_server.requests)
    compared = night("2026-11-02")
    # the verdict store answers every unchanged question: only q1's new answer (2 criteria) and the new rubric's
    # other four items are asked
    assert len(judge_server.requests) - asked == 2 + 4
    # same judge and rubric: compared item by item
    assert compared["judge:correct"]["paired_items"] == 4
    assert compared["judge:correct"]["delta"] == pytest.approx(-1 / 4)
    assert compared["judge:score_1_5"]["comparable"] is False
    assert compared["judge:score_1_5"]["reason"] == "not comparable: judge rubric changed"
    history = pq.read_table(workspace / "outputs/nightly/history.parquet").to_pylist()
    assert {(r["date"], r["metric"]) for r in history if r["metric"].startswith("judge:")} == {
        (d, m) for d in ("2026-11-01", "2026-11-02") for m in ("judge:correct", "judge:score_1_5")}


def test_a_failed_judge_call_is_counted_the_night_is_recorded_and_the_next_run_asks_only_it(tmp_path, judge_server, capsys):
    workspace = capitals_dataset(tmp_path, judge_server, 'criteria = ["correct"]\n')
    toml = workspace / "inputs/capitals/dataset.toml"  # 1 item of 5 not judged: published within the limit
    toml.write_text("max_unscored_share = 0.2\n" + toml.read_text(encoding="utf-8"), encoding="utf-8")
    judge_server.faults = [400]  # one call refused for good (a 400 is not retried)
    outputs = str(workspace / "outputs")
    night = ["nightly", "--date", "2026-11-01", "--inputs", str(workspace / "inputs"), "--outputs", outputs]
    assert main(night) == 0
    judged = read_artifact_json(workspace / "outputs/nightly/2026-11-01/capitals/m/B5_judge.json")
    assert judged["header"]["counts"]["failed_calls"] == 1 and judged["summary"]["correct"]["n"] == 3
    report = read_artifact_json(workspace / "outputs/nightly/2026-11-01/capitals/B6_report.json")["report"]
    assert report["judge"]["models"]["m"]["correct"]["failed_calls"] == 1
    summary = read_artifact_json(workspace / "outputs/nightly/2026-11-01/B6_summary.json")
    assert summary["failed"] == {} and "capitals" in {row["dataset"] for row in summary["rows"]}
    import pyarrow.parquet as pq

    history = pq.read_table(workspace / "outputs/nightly/history.parquet").to_pylist()
    assert ("2026-11-01", "judge:correct") in {(r["date"], r["metric"]) for r in history}
    capsys.readouterr()
    night_dir = str(workspace / "outputs/nightly/2026-11-01")
    assert main(["status", "--inputs", str(workspace / "inputs"), "--outputs", night_dir]) == 0
    assert "B6  capitals" in capsys.readouterr().out  # status reads a judged run's records without a KeyError
    asked = len(judge_server.requests)
    assert main(["run", "--inputs", str(workspace / "inputs"), "--outputs", night_dir, "--dataset", "capitals"]) == 0
    assert len(judge_server.requests) - asked == 1  # only the failed call is asked again
    judged = read_artifact_json(workspace / "outputs/nightly/2026-11-01/capitals/m/B5_judge.json")
    assert judged["header"]["counts"]["failed_calls"] == 0 and judged["summary"]["correct"]["n"] == 4
