"""FastChat's data/mt_bench folder as published (../shared/data/real): its 80 questions with their turns, category and
GPT-4's reference answers, each model's two-turn answers, FastChat's judge prompts carried along."""
import json

from stages.leaderboards.mt_bench.files import read_mt_bench


def _lines(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_the_published_folder_reads_as_questions_answers_and_prompts(real_data, tmp_path):
    root = real_data / "leaderboards/mt_bench"
    found = read_mt_bench(root)
    raw = _lines(root / "question.jsonl")
    assert found.problems == [] and [q["id"] for q in found.questions] == [str(r["question_id"]) for r in raw]
    assert [q["turns"] for q in found.questions] == [r["turns"] for r in raw]
    references = {str(r["question_id"]) for r in _lines(root / "reference_answer/gpt-4.jsonl")}
    assert {q["id"] for q in found.questions if "references" in q} == references
    assert sorted(found.answers) == sorted(p.stem for p in (root / "model_answer").glob("*.jsonl"))
    gpt4 = {str(r["question_id"]): r["choices"][0]["turns"] for r in _lines(root / "model_answer/gpt-4.jsonl")}
    assert all(answer["turns"] == gpt4[answer["id"]] for answer in found.answers["gpt-4"])
    assert found.files["judge_prompts.jsonl"] == (root / "judge_prompts.jsonl").read_bytes()
    assert found.board == {"name": "mt_bench", "prompts": "judge_prompts.jsonl"}
    assert read_mt_bench(tmp_path).problems == [f"{tmp_path / 'question.jsonl'}: not there (give FastChat's "
                                                "data/mt_bench folder)"]
