"""Arena-Hard-Auto v0.1 as published (../shared/data/real): 500 questions, each model's first-turn answers, the judge
named by its config, and the published leaderboard's scores and intervals."""
import csv
import json

from stages.leaderboards.arena_hard.files import read_arena_hard


def test_the_published_bench_reads_as_questions_answers_and_published_figures(real_data):
    root = real_data / "leaderboards/arena_hard"
    found = read_arena_hard(root)
    raw = [json.loads(line) for line in (root / "arena-hard-v0.1/question.jsonl").read_text().splitlines() if line]
    assert found.problems == [] and len(found.questions) == len(raw) == 500
    assert [q["id"] for q in found.questions] == [r["question_id"] for r in raw]
    assert sorted(found.answers) == ["gpt-3.5-turbo-0125", "gpt-4-0314", "gpt-4-0613"]
    assert found.judge == "gpt-4-1106-preview"
    with open(next((root / "leaderboard").glob("*.csv")), encoding="utf-8") as handle:
        rows = {row["model"]: row for row in csv.DictReader(handle)}
    assert found.published["gpt-4-0613"]["score"] == float(rows["gpt-4-0613"]["score"])
