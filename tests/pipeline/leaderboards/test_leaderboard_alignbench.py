"""AlignBench v1.1 as published (../shared/data/real/leaderboards/alignbench: questions, references and configs; no
model answers are published): imported, a model's answers generated live, each answer rated by a scripted judge with
its category's dimensions and the reference, the score read from the reply's last dict, and the category means,
中文推理, 中文语言 and 总分 equal to AlignBench's show_result computed independently."""
from __future__ import annotations

import hashlib
import json
import re
import shutil
import statistics

import pytest

from pipeline.cli import main
from stages.io.artifacts import read_artifact_json, read_columns
from tests.pipeline.chat_server import ChatServer

BOARD = "leaderboards/alignbench"
PER_CATEGORY = 3
REASONING = ("数学计算", "逻辑推理")
LANGUAGE = ("基本任务", "中文理解", "综合问答", "文本写作", "角色扮演", "专业能力")


def _judge(message: str) -> str | None:
    """Ratings drawn from the prompt's hash: a dict at the end, now and then only '综合得分': x in the text, or no
    score at all; None for the model's own questions (the server's echo answers them)."""
    if "[助手的答案开始]" not in message:
        return None
    draw = int(hashlib.sha256(message.encode()).hexdigest(), 16)
    score = 1 + draw % 10
    if draw % 13 == 0:
        return "我无法给出分数。"
    if draw % 7 == 0:
        return f"评价……综合来看 '综合得分': {score}，其余略。"
    return f"评价……\n{{'事实正确性': {1 + draw % 9}, '满足用户需求': {1 + draw % 8}, '综合得分': {score}}}"


def _imported(real_data, inputs, keep) -> tuple:
    """AlignBench imported into inputs, its questions.jsonl cut to keep(rows): the folder and the rows kept."""
    assert main(["import", "alignbench", str(real_data / BOARD), "--inputs", str(inputs)]) == 0
    folder = inputs / "alignbench"
    kept = keep([json.loads(line) for line in (folder / "questions.jsonl").open()])
    (folder / "questions.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in kept))
    return folder, kept


def _per_category(rows: list[dict]) -> list[dict]:
    """The first PER_CATEGORY questions of each category."""
    kept, seen = [], {}
    for row in rows:
        if seen.get(row["category"], 0) < PER_CATEGORY:
            kept.append(row)
            seen[row["category"]] = seen.get(row["category"], 0) + 1
    return kept


def _generated_and_judged(folder, inputs, outputs) -> list[dict]:
    """A run whose model "fresh" answers live and whose [judge] (the import's, given a url) rates it: the requests."""
    with ChatServer() as server:
        server.answer = _judge
        table = (folder / "dataset.toml").read_text().replace('url = ""', f'url = "{server.url}"')  # the judge's
        (folder / "dataset.toml").write_text(
            table + f'\n[generate]\nprotocol = "openai"\nurl = "{server.url}"\nmodels = ["fresh"]\n')
        assert main(["run", "--inputs", str(inputs), "--outputs", str(outputs)]) == 0
        return server.chats()


def _show_result_score(reply: str) -> float:
    """AlignBench's post_process, written independently: the last one-line {…}'s 综合得分, else the first
    '综合得分': x, else −1."""
    found = re.search(r"\{(.*?)\}(?![^{]*\{)", reply)
    ratings = dict(re.findall(r"'(.*?)': (\d+)", found.group(1))) if found else {}
    if "综合得分" in ratings:
        return float(ratings["综合得分"])
    anywhere = re.search(r"'综合得分': (\d+(\.\d{1,2})?)", reply)
    return float(anywhere.group(1)) if anywhere else -1


def test_alignbench_rated_live_equals_its_show_result(tmp_path, real_data, capsys):
    inputs, outputs = tmp_path / "inputs", tmp_path / "outputs"
    folder, kept = _imported(real_data, inputs, _per_category)
    assert "683 instructions, 0 models; no model's answers" in capsys.readouterr().out
    config = json.loads((folder / "alignbench.json").read_text())
    chats = _generated_and_judged(folder, inputs, outputs)
    capsys.readouterr()
    judged = {c["body"]["messages"][-1]["content"] for c in chats if c["body"]["model"] == "gpt-4"}
    assert len(judged) == len(kept)
    scores: dict[str, list[float]] = {}
    for row in kept:
        prompt = next(p for p in judged if f"用户的提问：{row['instruction']}\n" in p)
        answer_type = config["subcategory_mapping"][row["subcategory"]]
        for name in config["dimension_set"][answer_type]:
            assert f"{name}: {config['dimension_definition'][name]}" in prompt  # the type's dimensions, defined
        assert f"[参考答案开始]\n{row['answer']}\n[参考答案结束]" in prompt and f"属于{row['category']}类" in prompt
        scores.setdefault(row["category"], []).append(_show_result_score(_judge(prompt)))
    # show_result: category means, then 中文推理 / 中文语言 as means of category means, 总分 their mean (its −1 for a
    # reply without a score is left out here, as evalpipe leaves unparsed replies out)
    means = {cat: statistics.mean(s for s in found if s != -1) for cat, found in scores.items()}
    reasoning = statistics.mean(means[c] for c in REASONING)
    language = statistics.mean(means[c] for c in LANGUAGE)
    section = read_artifact_json(outputs / "alignbench/B6_report.json")["report"]["leaderboards"]["alignbench"]
    found = section["models"]["fresh"]
    for category, mean in means.items():
        assert found[category] == pytest.approx(mean), category
    assert found["中文推理"] == pytest.approx(reasoning) and found["中文语言"] == pytest.approx(language)
    assert found["总分"] == pytest.approx((reasoning + language) / 2)
    assert found["unparsed"] == sum(s == -1 for found in scores.values() for s in found)
    assert section["headline"] == "总分"


def test_published_judgments_imported_give_the_same_scores_without_a_call(tmp_path, real_data, capsys):
    """AlignBench's data/judgment/<model>.jsonl as judge.py writes it (the answer record with rating and score, −1
    for none), and data/model_answer/<model>.jsonl as get_answers.py writes it, made from a live run; imported, no
    [judge]: the same figures."""
    live_inputs, live_outputs = tmp_path / "live" / "inputs", tmp_path / "live" / "outputs"
    folder, rows = _imported(real_data, live_inputs, lambda rows: rows[:40])
    _generated_and_judged(folder, live_inputs, live_outputs)
    capsys.readouterr()
    live = read_artifact_json(live_outputs / "alignbench/B6_report.json")["report"]["leaderboards"]["alignbench"]
    answers = read_columns(live_outputs / "alignbench/fresh/B2_predictions.json")
    judged = read_columns(live_outputs / "alignbench/fresh/B5_leaderboard.json")
    source = tmp_path / "AlignBench"
    shutil.copytree(real_data / BOARD / "config", source / "config")
    (source / "data" / "model_answer").mkdir(parents=True)
    (source / "data" / "judgment").mkdir()
    (source / "data" / "data_v1.1_release.jsonl").write_text("".join(
        json.dumps({"question_id": int(r["id"]), "category": r["category"], "subcategory": r["subcategory"],
                    "question": r["instruction"], "reference": r["answer"]}, ensure_ascii=False) + "\n" for r in rows))
    by_id = {str(i): text for i, text in zip(answers["id"], answers["prediction"])}
    (source / "data" / "model_answer" / "fresh.jsonl").write_text("".join(
        json.dumps({"question_id": int(i), "model_id": "fresh", "answer": text}, ensure_ascii=False) + "\n"
        for i, text in by_id.items()))
    (source / "data" / "judgment" / "fresh.jsonl").write_text("".join(
        json.dumps({"question_id": int(i), "model_id": "fresh", "answer": by_id[str(i)], "judgment": "…",
                    "rating": json.loads(r) if r else {}, "score": -1 if s is None else s}, ensure_ascii=False) + "\n"
        for i, s, r in zip(judged["id"], judged["score"], judged["ratings"])))
    inputs = tmp_path / "again" / "inputs"
    assert main(["import", "alignbench", str(source), "--inputs", str(inputs)]) == 0
    assert "1 models; 40 verdicts of gpt-4" in capsys.readouterr().out
    assert main(["run", "--inputs", str(inputs), "--outputs", str(tmp_path / "again" / "outputs")]) == 0
    capsys.readouterr()
    again = read_artifact_json(tmp_path / "again/outputs/alignbench/B6_report.json")["report"]["leaderboards"]
    for figure, value in live["models"]["fresh"].items():
        assert again["alignbench"]["models"]["fresh"][figure] == pytest.approx(value), figure
