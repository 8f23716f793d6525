"""Arena-Hard-Auto asked live (../shared/data/real/leaderboards/arena_hard: its questions and three models' published
answers) with a scripted five-way judge on 127.0.0.1 and Arena-Hard's own judge prompt; the scores equal an
independent computation of show_result.py's rule (battles, strong ×3, ties both ways, scikit-learn's logistic
regression anchored at the baseline)."""
from __future__ import annotations

import hashlib
import json
import math
import re
import shutil
import tomllib

import numpy as np
import pytest
import tomli_w
import yaml

from pipeline.cli import main
from stages.io.artifacts import read_artifact_json, read_columns
from stages.leaderboards.arena_hard.rules import style_features
from tests.pipeline.chat_server import ChatServer
from tests.pipeline.workspace import write_jsonl

BOARD = "leaderboards/arena_hard"
BASELINE = "gpt-4-0314"
MODELS = (BASELINE, "gpt-4-0613", "gpt-3.5-turbo-0125")
QUESTIONS = 40
LABELS = ("A>>B", "A>B", "A=B", "B>A", "B>>A")
A_START, A_END = "<|The Start of Assistant A's Answer|>\n", "\n<|The End of Assistant A's Answer|>"
B_START, B_END = "<|The Start of Assistant B's Answer|>\n", "\n<|The End of Assistant B's Answer|>"


def _between(text: str, start: str, end: str) -> str:
    return text[text.index(start) + len(start):text.index(end)]


def _judge(message: str) -> str:
    """A scripted judge: prefers the longer answer, strongly when much longer, with a hash-drawn tie now and then;
    one reply in 23 names two different verdicts (no verdict, by Arena-Hard's rule)."""
    a, b = _between(message, A_START, A_END), _between(message, B_START, B_END)
    draw = int(hashlib.sha256(message.encode()).hexdigest(), 16)
    if draw % 23 == 0:
        return "I cannot decide: [[A>B]] or maybe [[B>A]]."
    if draw % 7 == 0:
        return "Both are fine. My final verdict is tie: [[A=B]]"
    ratio = (len(b) + 1) / (len(a) + 1)
    label = "B>>A" if ratio > 2 else "B>A" if ratio > 1 else "A>>B" if ratio < 0.5 else "A>B"
    return f"My own answer first... My final verdict is: [[{label}]]"


def _dataset(root, real_data, server) -> None:
    source = real_data / BOARD / "arena-hard-v0.1"
    questions = [json.loads(line) for line in (source / "question.jsonl").read_text().splitlines()][:QUESTIONS]
    folder = root / "inputs" / "arena"
    write_jsonl(folder / "questions.jsonl", [{"id": q["question_id"], "instruction": q["turns"][0]["content"]}
                                             for q in questions])
    wanted = {q["question_id"] for q in questions}
    for model in MODELS:
        rows = [json.loads(line) for line in (source / "model_answer" / f"{model}.jsonl").read_text().splitlines()]
        write_jsonl(folder / "predictions" / f"{model}.jsonl", [
            {"id": r["question_id"], "output": r["choices"][0]["turns"][0]["content"]} for r in rows
            if r["question_id"] in wanted])
    config = yaml.safe_load((real_data / BOARD / "config" / "judge_config_v0.1.yaml").read_text())
    template = config["prompt_template"][0].replace("{question_1}", "{question}").replace(
        "{answer_1}", "{answer_a}").replace("{answer_2}", "{answer_b}")
    table = {"kind": "instruction", "judge": {
        "url": server.url, "model": config["judge_model"], "system_prompt": config["system_prompt"],
        "temperature": 0, "pairwise": True, "baseline": BASELINE,
        "rubrics": {"pairwise": {"template": template, "scale": "five_way"}}}}
    (folder / "dataset.toml").write_text(tomli_w.dumps(table))


def _show_result(chats: list[dict], answers: dict[str, dict[str, str]], style: bool = False) -> dict[str, float]:
    """show_result.py's rule, written independently: battles from each game's verdict, duplicated, a tie as one win
    each way, scikit-learn's unpenalized logistic regression, anchored at the baseline, as win rates."""
    from sklearn.linear_model import LogisticRegression

    owner = {text: model for model, found in answers.items() for text in found.values()}
    battles = []
    for chat in chats:
        message = chat["body"]["messages"][-1]["content"]
        found = set(re.findall(r"\[\[([AB<>=]+)\]\]", _judge(message)))
        if len(found) != 1:
            continue
        label = found.pop()
        a, b = _between(message, A_START, A_END), _between(message, B_START, B_END)
        game = 1 if owner[a] == BASELINE else 2
        model = owner[b] if game == 1 else owner[a]
        winner = {"A>>B": "model_a", "A>B": "model_a", "A=B": "tie", "B>A": "model_b", "B>>A": "model_b"}[label]
        if game == 2 and winner != "tie":
            winner = "model_b" if winner == "model_a" else "model_a"  # A is the model in game 2
        item = next(i for i, text in answers[model].items() if text == (b if game == 1 else a))
        battles += [(model, item, winner)] * (3 if label in ("A>>B", "B>>A") else 1)
    models = sorted(MODELS)
    rows = battles + battles
    x = np.zeros((len(rows), len(models)))
    y = np.zeros(len(rows))
    for i, (model, _, winner) in enumerate(rows):
        x[i, models.index(BASELINE)] = math.log(10)
        x[i, models.index(model)] = -math.log(10)
        y[i] = 1.0 if winner == "model_a" or (winner == "tie" and i < len(battles)) else 0.0
    if style:
        feats = []
        for model, item, _ in rows:
            base, them = np.array(style_features(answers[BASELINE][item]), float), np.array(
                style_features(answers[model][item]), float)
            total = base + them
            feats.append(np.divide(base - them, total, out=np.zeros_like(total), where=total > 0))
        feats = np.array(feats)
        sd = feats.std(axis=0)
        x = np.hstack([x, (feats - feats.mean(axis=0)) / np.where(sd > 0, sd, 1)])
    fit = LogisticRegression(C=1e12, fit_intercept=False, tol=1e-10, max_iter=100_000).fit(x, y)
    elo = 400 * fit.coef_[0][:len(models)] + 1000
    elo += 1000 - elo[models.index(BASELINE)]
    return {m: 100 / (1 + 10 ** ((1000 - elo[i]) / 400)) for i, m in enumerate(models)}


def test_arena_hard_scores_equal_show_results_rule(tmp_path, real_data, capsys):
    with ChatServer() as server:
        server.answer = _judge
        _dataset(tmp_path, real_data, server)
        assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")]) == 0
        chats = server.chats()
    out = capsys.readouterr().out
    assert len(chats) == 2 * 2 * QUESTIONS  # two games per question for each model but the baseline
    assert all(chat["body"]["messages"][0]["role"] == "system" for chat in chats)
    answers = {}
    for model in MODELS:
        rows = [json.loads(line) for line in (tmp_path / "inputs/arena/predictions" / f"{model}.jsonl").open()]
        answers[model] = {r["id"]: r["output"] for r in rows}
    section = read_artifact_json(tmp_path / "outputs/arena/B6_report.json")["report"]["leaderboards"]["arena_hard"]
    expected = _show_result(chats, answers)
    styled = _show_result(chats, answers, style=True)
    assert section["baseline"] == BASELINE and section["headline"] == "score"
    for model in MODELS:
        found = section["models"][model]
        assert found["score"] == pytest.approx(expected[model], abs=0.01), model
        assert found["style_controlled_score"] == pytest.approx(styled[model], abs=0.01), model
        assert found["lower"] <= found["score"] <= found["upper"]
    assert section["models"][BASELINE]["score"] == pytest.approx(50.0)
    unparsed = sum(len(set(re.findall(r"\[\[([AB<>=]+)\]\]", _judge(c["body"]["messages"][-1]["content"])))) != 1
                   for c in chats)
    assert unparsed > 0 and sum(f["not_judged"] for f in section["models"].values()) == unparsed
    assert "arena_hard:score" in out


def test_the_folder_imports_as_published_and_adding_a_url_asks_its_way(tmp_path, real_data, capsys):
    inputs, outputs = tmp_path / "inputs", tmp_path / "outputs"
    assert main(["import", "arena-hard", str(real_data / BOARD), "--inputs", str(inputs)]) == 0
    assert ("500 instructions, 3 models (baseline gpt-4-0314); no recorded verdicts; [judge] asks gpt-4-1106-preview "
            "what is missing once you give its url") in capsys.readouterr().out
    folder = inputs / "arena_hard"
    config = yaml.safe_load((real_data / BOARD / "config" / "judge_config_v0.1.yaml").read_text())
    written = tomllib.loads((folder / "dataset.toml").read_text())
    assert written["judge"]["url"] == "" and written["judge"]["system_prompt"] == config["system_prompt"]
    assert written["judge"]["rubrics"]["pairwise"]["scale"] == "five_way"
    assert written["provenance"]["gpt-4-0613"]["published"] == {"score": 37.9, "lower": 35.6, "upper": 40.36}
    # no url: nothing is asked, every game is counted as not judged, and the run says why
    assert main(["run", "--inputs", str(inputs), "--outputs", str(outputs)]) == 0
    assert "[judge] has no url: 2,000 call(s) not judged" in capsys.readouterr().err
    section = read_artifact_json(outputs / "arena_hard/B6_report.json")["report"]["leaderboards"]["arena_hard"]
    assert section["published"]["gpt-4-0613"] == {"score": 37.9, "lower": 35.6, "upper": 40.36}
    assert section["models"]["gpt-4-0613"]["score"] is None and section["judge"] == "gpt-4-1106-preview"
    report = (outputs / "arena_hard" / "B6_report.txt").read_text()
    assert "Arena-Hard-Auto (judge gpt-4-1106-preview, baseline gpt-4-0314)" in report
    assert re.search(r"\(published\) +37\.90 +35\.60 +40\.36", report)
    # a url: the first 30 questions asked Arena-Hard's way, scored by show_result's rule, published beside
    lines = (folder / "questions.jsonl").read_text().splitlines()[:30]
    (folder / "questions.jsonl").write_text("\n".join(lines) + "\n")
    with ChatServer() as server:
        server.answer = _judge
        (folder / "dataset.toml").write_text((folder / "dataset.toml").read_text().replace(
            'url = ""', f'url = "{server.url}"'))
        assert main(["run", "--inputs", str(inputs), "--outputs", str(outputs)]) == 0
        chats = server.chats()
    capsys.readouterr()
    assert len(chats) == 2 * 2 * 30
    answers = {}
    for model in MODELS:
        rows = [json.loads(line) for line in (folder / "predictions" / f"{model}.jsonl").open()]
        answers[model] = {r["id"]: r["output"] for r in rows}
    expected = _show_result(chats, answers)
    section = read_artifact_json(outputs / "arena_hard/B6_report.json")["report"]["leaderboards"]["arena_hard"]
    for model in MODELS:
        assert section["models"][model]["score"] == pytest.approx(expected[model], abs=0.01)
    assert section["published"]["gpt-4-0613"]["score"] == 37.9
    assert (folder / "dataset.toml").read_text().count(server.url) == 1


def test_published_judgments_imported_give_the_same_scores_without_a_call(tmp_path, real_data, capsys):
    """Arena-Hard's model_judgment/<judge>/<model>.jsonl as gen_judgment writes it (question_id, model, judge, two
    games with their score), made from a live run's verdicts; imported with the bench, url = "": the same scores."""
    with ChatServer() as server:
        server.answer = _judge
        _dataset(tmp_path, real_data, server)
        assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")]) == 0
    capsys.readouterr()
    live = read_artifact_json(tmp_path / "outputs/arena/B6_report.json")["report"]["leaderboards"]["arena_hard"]
    rows = read_columns(tmp_path / "outputs/arena/B5_pairwise.json")
    source = tmp_path / "arena-hard-auto"
    bench = source / "data" / "arena-hard-v0.1"
    (bench / "model_answer").mkdir(parents=True)
    (source / "config").mkdir()
    shutil.copy(real_data / BOARD / "config" / "judge_config_v0.1.yaml", source / "config" / "judge_config.yaml")
    questions = [json.loads(line) for line in (real_data / BOARD / "arena-hard-v0.1/question.jsonl").open()][:QUESTIONS]
    (bench / "question.jsonl").write_text("".join(json.dumps(q) + "\n" for q in questions))
    for model in MODELS:
        published = (real_data / BOARD / "arena-hard-v0.1/model_answer" / f"{model}.jsonl").read_text().splitlines()
        (bench / "model_answer" / f"{model}.jsonl").write_text("\n".join(published) + "\n")
    judged = bench / "model_judgment" / "gpt-4-1106-preview"
    judged.mkdir(parents=True)
    for model in MODELS[1:]:
        games = [json.dumps({"question_id": item, "model": model, "judge": "gpt-4-1106-preview", "games": [
            {"user_prompt": "…", "judgment": "…", "score": labels[1]}, {"user_prompt": "…", "judgment": "…",
                                                                         "score": labels[0]}]})
                 for first, item, labels in zip(rows["first"], rows["id"], rows["labels"]) if first == model]
        (judged / f"{model}.jsonl").write_text("\n".join(games) + "\n")
    inputs = tmp_path / "again" / "inputs"
    assert main(["import", "arena-hard", str(source), "--inputs", str(inputs)]) == 0
    assert f"{2 * QUESTIONS} verdicts of gpt-4-1106-preview" in capsys.readouterr().out
    assert main(["run", "--inputs", str(inputs), "--outputs", str(tmp_path / "again" / "outputs")]) == 0
    capsys.readouterr()
    again = read_artifact_json(tmp_path / "again/outputs/arena_hard/B6_report.json")["report"]["leaderboards"]
    for model in MODELS:
        for figure in ("score", "style_controlled_score", "battles"):
            assert again["arena_hard"]["models"][model][figure] == pytest.approx(live["models"][model][figure])
