"""The judge tests' dataset: five capitals questions (one in Chinese), model m's answers, and the scripted judge's
replies keyed by what its prompt contains."""
from __future__ import annotations

import json
from pathlib import Path

from tests.pipeline.chat_server import ChatServer

QUESTIONS = [("q1", "What is the capital of France?", ["Paris"]), ("q2", "What is the capital of Italy?", ["Rome"]),
             ("q3", "Who wrote Hamlet?", ["Shakespeare", "William Shakespeare"]), ("q4", "2 + 2?", ["4"]),
             ("q5", "法国的首都是哪里？", ["巴黎"])]
ANSWERS = {"q1": "It is Paris.", "q2": "Milan", "q3": "I am not sure.", "q4": "four-ish", "q5": "巴黎"}
JUDGE_REPLIES = {  # the first key the judge prompt contains decides the reply
    "Rate it from 1": "Mostly right. Rating: 4",
    "对照参考答案": "[[5]]",
    "Answer to grade: It is Paris.": 'The answer names Paris. {"reason": "names Paris", "verdict": "CORRECT"}',
    "Answer to grade: Milan": "Milan is not Rome.\nVerdict: INCORRECT",
    "Answer to grade: I am not sure.": "[[NOT_ATTEMPTED]]",
    "Answer to grade: four-ish": "Hard to say; it depends.",
    "待评回答：巴黎": '{"verdict": "CORRECT", "reason": "与标准答案一致"}',
}
SECRET = "sk-judge-secret-1234"


def capitals_dataset(tmp_path: Path, server: ChatServer, judge: str) -> Path:
    """inputs/capitals: five questions, model m's answers and a [judge] at `server` with `judge`'s settings."""
    folder = tmp_path / "inputs" / "capitals"
    (folder / "predictions").mkdir(parents=True)
    (folder / "questions.jsonl").write_text("".join(
        json.dumps({"id": i, "question": q, "answers": a}, ensure_ascii=False) + "\n" for i, q, a in QUESTIONS),
        encoding="utf-8")
    (folder / "predictions" / "m.jsonl").write_text("".join(
        json.dumps({"id": i, "prediction": p}, ensure_ascii=False) + "\n" for i, p in ANSWERS.items()),
        encoding="utf-8")
    (folder / "dataset.toml").write_text(
        f'kind = "qa"\n[judge]\nurl = "{server.url}"\nmodel = "judge-1"\nretries = 2\nbackoff = 0.01\n'
        f'api_key_env = "EVALPIPE_TEST_JUDGE_KEY"\n{judge}', encoding="utf-8")
    return tmp_path
