"""MT-Bench as FastChat publishes it (../shared/data/real/leaderboards/mt_bench): imported, one more model generated
live turn by turn, and every turn rated by a scripted judge on 127.0.0.1 with FastChat's prompts — turn 2 carries
the whole conversation, math / reasoning / coding prompts carry the reference answers — and the turn 1, turn 2 and
overall means equal FastChat's show_result computed independently from the judge's replies."""
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

BOARD = "leaderboards/mt_bench"
KEPT = ("gpt-4", "vicuna-13b-v1.3")
JUDGE_MARKS = ("[Instruction]", "<|The Start of Assistant A's Conversation with User|>")


def _judge(message: str) -> str | None:
    """A scripted judge: a rating drawn from the prompt's hash, in [[x]], in [x] or missing (unparsed) now and then;
    None for requests that are not judge prompts (the generated model's turns get the server's echo)."""
    if not any(mark in message for mark in JUDGE_MARKS):
        return None
    draw = int(hashlib.sha256(message.encode()).hexdigest(), 16)
    rating = 1 + draw % 10
    if draw % 17 == 0:
        return "I would rather not give a number."
    return f"Explanation... Rating: [{rating}]" if draw % 5 == 0 else f"Explanation... Rating: [[{rating}]]"


def _fastchat_score(reply: str) -> float:
    """FastChat's run_judge_single: [[x]], else [x], else −1."""
    found = re.search(r"\[\[(\d+\.?\d*)\]\]", reply) or re.search(r"\[(\d+\.?\d*)\]", reply)
    return float(found.group(1)) if found else -1


@pytest.fixture
def night(tmp_path, real_data, capsys):
    inputs, outputs = tmp_path / "inputs", tmp_path / "outputs"
    assert main(["import", "mt-bench", str(real_data / BOARD), "--inputs", str(inputs)]) == 0
    folder = inputs / "mt_bench"
    for path in (folder / "predictions").glob("*.jsonl"):
        if path.stem not in KEPT:
            path.unlink()
    with ChatServer() as server:
        server.answer = _judge
        config = (folder / "dataset.toml").read_text().replace('url = ""', f'url = "{server.url}"')  # the judge's
        config += f'\n[generate]\nprotocol = "openai"\nurl = "{server.url}"\nmodels = ["fresh"]\n'
        (folder / "dataset.toml").write_text(config)
        assert main(["run", "--inputs", str(inputs), "--outputs", str(outputs)]) == 0
        chats = server.chats()
    capsys.readouterr()
    return folder, outputs, chats


def test_turn_two_is_asked_with_the_whole_conversation(night):
    folder, outputs, chats = night
    questions = {json.loads(line)["id"]: json.loads(line) for line in (folder / "questions.jsonl").open()}
    asked = [c["body"] for c in chats if c["body"]["model"] == "fresh"]
    assert len(asked) == 2 * len(questions)
    second = [body for body in asked if len(body["messages"]) > 1]
    assert len(second) == len(questions)
    for body in second:
        first_turn, answer, second_turn = (m["content"] for m in body["messages"])
        item = next(q for q in questions.values() if q["turns"][0] == first_turn)
        assert second_turn == item["turns"][1]
        assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user"]
        assert answer == f"fresh says: {first_turn} [turn 1]"  # the model's own first answer in the history
    b2 = read_artifact_json(outputs / "mt_bench" / "fresh" / "B2_predictions.json")
    assert b2["header"]["counts"]["accepted"] == len(questions)


def test_every_turn_is_rated_with_fastchats_prompt_and_the_reference_where_it_belongs(night, real_data):
    folder, outputs, chats = night
    prompts = {json.loads(line)["name"]: json.loads(line) for line in (real_data / BOARD / "judge_prompts.jsonl").open()}
    questions = [json.loads(line) for line in (folder / "questions.jsonl").open()]
    judged = [c["body"]["messages"] for c in chats if c["body"]["model"] == "gpt-4"]
    # three models, two turns each; a prompt asked once already (two models' identical answers) comes from the store
    assert len(judged) == len({json.dumps(m) for m in judged}) <= 3 * 2 * len(questions)
    assert len(judged) > 3 * 2 * len(questions) - 5
    for item in questions:
        math = item["category"] in ("math", "reasoning", "coding")
        mine = [m for m in judged if item["turns"][0] in m[-1]["content"]]
        first = [m for m in mine if m[-1]["content"].startswith("[Instruction]")]
        second = [m for m in mine if "### User:\n" + item["turns"][1] in m[-1]["content"]]
        assert 1 <= len(first) <= 3 and 1 <= len(second) <= 3, item["id"]
        names = ("single-math-v1", "single-math-v1-multi-turn") if math else ("single-v1", "single-v1-multi-turn")
        assert all(m[0] == {"role": "system", "content": prompts[names[0]]["system_prompt"]} for m in first)
        assert all(m[0] == {"role": "system", "content": prompts[names[1]]["system_prompt"]} for m in second)
        if math:
            assert all(item["references"][0] in m[-1]["content"] for m in first + second)
            assert all(item["references"][1] in m[-1]["content"] for m in second)
        else:
            assert not any("Start of Reference Answer" in m[-1]["content"] for m in first + second)


def _fastchat_prompt(prompts: dict, item: dict, answers: list[str], turn: int) -> str:
    """The judge prompt FastChat's gen_judgment renders for one turn (written from its templates, independently)."""
    math = item["category"] in ("math", "reasoning", "coding") and bool(item.get("references"))
    name = {(1, False): "single-v1", (2, False): "single-v1-multi-turn", (1, True): "single-math-v1",
            (2, True): "single-math-v1-multi-turn"}[(turn, math)]
    values = ({"question": item["turns"][0], "answer": answers[0]} if turn == 1 else
              {"question_1": item["turns"][0], "question_2": item["turns"][1], "answer_1": answers[0],
               "answer_2": answers[1]})
    if math:
        values.update({"ref_answer_1": item["references"][0], "ref_answer_2": item["references"][1]})
    return prompts[name]["prompt_template"].format(**values)


def test_turn_and_overall_means_equal_fastchats_show_result(night, real_data):
    folder, outputs, chats = night
    prompts = {json.loads(line)["name"]: json.loads(line) for line in (real_data / BOARD / "judge_prompts.jsonl").open()}
    questions = [json.loads(line) for line in (folder / "questions.jsonl").open()]
    answers = {}
    for path in (folder / "predictions").glob("*.jsonl"):
        answers[path.stem] = {json.loads(line)["id"]: json.loads(line)["turns"] for line in path.open()}
    section = read_artifact_json(outputs / "mt_bench" / "B6_report.json")["report"]["leaderboards"]["mt_bench"]
    asked = {c["body"]["messages"][-1]["content"] for c in chats if c["body"]["model"] == "gpt-4"}
    for model in (*KEPT, "fresh"):
        rows = []  # (turn, score) as FastChat's model_judgment would hold them
        for item in questions:
            turns = answers[model][item["id"]] if model in answers else [
                f"fresh says: {item['turns'][0]} [turn 1]", f"fresh says: {item['turns'][1]} [turn 2]"]
            for turn in (1, 2):
                prompt = _fastchat_prompt(prompts, item, turns, turn)
                assert prompt in asked, (model, item["id"], turn)
                rows.append((turn, _fastchat_score(_judge(prompt))))
        kept = [(turn, score) for turn, score in rows if score != -1]  # show_result drops −1
        found = section["models"][model]
        assert found["turn_1"] == pytest.approx(statistics.mean(s for t, s in kept if t == 1)), model
        assert found["turn_2"] == pytest.approx(statistics.mean(s for t, s in kept if t == 2)), model
        assert found["overall"] == pytest.approx(statistics.mean(s for _, s in kept)), model
        assert found["unparsed"] == len(rows) - len(kept) and found["rated"] == len(kept)
    assert section["headline"] == "overall"


def test_published_judgments_imported_give_the_same_scores_without_a_call(night, real_data, tmp_path, capsys):
    """FastChat's model_judgment/gpt-4_single.jsonl as gen_judgment writes it (question_id, model, judge, turn,
    score, −1 for none), made from the live night's ratings; imported beside the questions, no [judge]: the same
    figures, nothing asked."""
    folder, outputs, _ = night
    live = read_artifact_json(outputs / "mt_bench" / "B6_report.json")["report"]["leaderboards"]["mt_bench"]
    source = tmp_path / "mt_bench_with_judgments"
    shutil.copytree(real_data / BOARD, source)
    for path in (source / "model_answer").glob("*.jsonl"):
        if path.stem not in KEPT:
            path.unlink()
    lines = []
    for model in KEPT:
        found = read_columns(outputs / "mt_bench" / model / "B5_leaderboard.json")
        for item, turn, prompt, rating in zip(found["id"], found["turn"], found["prompt"], found["rating"]):
            lines.append(json.dumps({"question_id": int(item), "model": model, "judge": ["gpt-4", prompt],
                                     "user_prompt": "…", "judgment": "…", "score": -1 if rating is None else rating,
                                     "turn": turn, "tstamp": 0.0}))
    (source / "model_judgment").mkdir()
    (source / "model_judgment" / "gpt-4_single.jsonl").write_text("\n".join(lines) + "\n")
    (source / "model_judgment" / "gpt-4_pair.jsonl").write_text("")
    inputs = tmp_path / "again" / "inputs"
    assert main(["import", "mt-bench", str(source), "--inputs", str(inputs)]) == 0
    captured = capsys.readouterr()
    assert "verdicts of gpt-4" in captured.out and "pairwise judgments are not read" in captured.err
    assert main(["run", "--inputs", str(inputs), "--outputs", str(tmp_path / "again" / "outputs")]) == 0
    capsys.readouterr()
    section = read_artifact_json(tmp_path / "again/outputs/mt_bench/B6_report.json")["report"]["leaderboards"]
    for model in KEPT:
        for figure in ("turn_1", "turn_2", "overall", "rated", "unparsed"):
            assert section["mt_bench"]["models"][model][figure] == pytest.approx(live["models"][model][figure])
        assert section["mt_bench"]["models"][model]["not_judged"] == 0


def _pair_judge(message: str) -> str | None:
    """A scripted pairwise judge: [[A]], [[B]] or [[C]] drawn from the prompt's hash, or no verdict now and then."""
    if "Assistant A" not in message:
        return None
    draw = int(hashlib.sha256(message.encode()).hexdigest(), 16)
    return ["My verdict: [[A]]", "My verdict: [[B]]", "It is a tie: [[C]]", "Hard to say."][draw % 7 % 4]


def _fastchat_pair_winner(reply: str) -> str:
    """FastChat's run_judge_pair: [[A]], else [[B]], else [[C]] (tie), else error."""
    return "A" if "[[A]]" in reply else "B" if "[[B]]" in reply else "tie" if "[[C]]" in reply else "error"


def test_pairwise_against_a_baseline_as_fastchats_pairwise_baseline_mode(tmp_path, real_data, capsys):
    inputs, outputs = tmp_path / "inputs", tmp_path / "outputs"
    assert main(["import", "mt-bench", str(real_data / BOARD), "--inputs", str(inputs)]) == 0
    folder = inputs / "mt_bench"
    models = ("gpt-4", "vicuna-13b-v1.3", "gpt-3.5-turbo")
    for path in (folder / "predictions").glob("*.jsonl"):
        if path.stem not in models:
            path.unlink()
    with ChatServer() as server:
        server.answer = _pair_judge
        config = (folder / "dataset.toml").read_text().replace(
            'prompts = "judge_prompts.jsonl"', 'prompts = "judge_prompts.jsonl"\nbaseline = "gpt-3.5-turbo"')
        (folder / "dataset.toml").write_text(config.replace('url = ""', f'url = "{server.url}"'))
        assert main(["run", "--inputs", str(inputs), "--outputs", str(outputs)]) == 0
        chats = server.chats()
    capsys.readouterr()
    questions = [json.loads(line) for line in (folder / "questions.jsonl").open()]
    answers = {m: {json.loads(line)["id"]: json.loads(line)["turns"]
                   for line in (folder / "predictions" / f"{m}.jsonl").open()} for m in models}
    asked = {c["body"]["messages"][-1]["content"] for c in chats}
    section = read_artifact_json(outputs / "mt_bench/B6_report.json")["report"]["leaderboards"]["mt_bench_pairwise"]
    for model in models[:2]:
        win = loss = tie = 0
        for item in questions:
            for turn in (1, 2):
                g1, g2 = (_fastchat_prompt_pair(real_data, item, first, second, turn) for first, second in (
                    (answers[model][item["id"]], answers["gpt-3.5-turbo"][item["id"]]),
                    (answers["gpt-3.5-turbo"][item["id"]], answers[model][item["id"]])))
                assert g1 in asked and g2 in asked
                w1, w2 = _fastchat_pair_winner(_pair_judge(g1)), _fastchat_pair_winner(_pair_judge(g2))
                if "error" in (w1, w2):
                    continue  # show_result drops a match with an error
                m1 = {"A": "model", "B": "base", "tie": "tie"}[w1]
                m2 = {"A": "base", "B": "model", "tie": "tie"}[w2]
                if m1 == "tie" or m1 != m2:
                    tie += 1
                elif m1 == "model":
                    win += 1
                else:
                    loss += 1
        found = section["models"][model]
        total = win + loss + tie
        assert (found["win"], found["loss"], found["tie"]) == (win, loss, tie), model
        assert found["win_rate_adjusted"] == pytest.approx((win + 0.5 * tie) / total)
        assert found["win_rate"] == pytest.approx(win / total)


def _fastchat_prompt_pair(real_data, item: dict, a: list[str], b: list[str], turn: int) -> str:
    """The pairwise prompt FastChat renders for one game (the first answer as A), written independently."""
    prompts = {json.loads(line)["name"]: json.loads(line) for line in (real_data / BOARD / "judge_prompts.jsonl").open()}
    math = item["category"] in ("math", "reasoning", "coding") and bool(item.get("references"))
    name = {(1, False): "pair-v2", (2, False): "pair-v2-multi-turn", (1, True): "pair-math-v1",
            (2, True): "pair-math-v1-multi-turn"}[(turn, math)]
    values = ({"question": item["turns"][0], "answer_a": a[0], "answer_b": b[0]} if turn == 1 else
              {"question_1": item["turns"][0], "question_2": item["turns"][1], "answer_a_1": a[0], "answer_a_2": a[1],
               "answer_b_1": b[0], "answer_b_2": b[1]})
    if math:
        values.update({"ref_answer_1": item["references"][0], "ref_answer_2": item["references"][1]})
    return prompts[name]["prompt_template"].format(**values)
