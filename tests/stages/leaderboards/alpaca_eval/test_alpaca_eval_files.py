"""AlpacaEval's results folder as published (../shared/data/real): 805 instructions, each model's outputs, the
weighted GPT-4 Turbo annotator's preferences against the baseline, and the leaderboard's published figures."""
import csv
import json

from stages.leaderboards.alpaca_eval.files import read_alpaca_eval


def test_the_published_results_read_as_instructions_outputs_and_verdicts(real_data):
    root = real_data / "leaderboards/alpaca_eval"
    found = read_alpaca_eval(root)
    assert found.problems == [] and found.judge == "weighted_alpaca_eval_gpt4_turbo"
    outputs = json.loads((root / "results/alpaca-7b/model_outputs.json").read_text(encoding="utf-8"))
    assert len(found.questions) == len(outputs) == 805
    assert [q["instruction"] for q in found.questions] == [o["instruction"] for o in outputs]
    assert [a["output"] for a in found.answers["alpaca-7b"]] == [o["output"] for o in outputs]
    assert sorted(found.answers) == ["alpaca-7b", "falcon-7b-instruct", "gpt4_1106_preview"]
    assert len(found.verdicts) == 2 * 805 and {v["model"] for v in found.verdicts} == {"alpaca-7b",
                                                                                      "falcon-7b-instruct"}
    with open(root / "weighted_alpaca_eval_gpt4_turbo_leaderboard.csv", encoding="utf-8") as handle:
        published = {row[""] or row.get("name"): row for row in csv.DictReader(handle)}
    assert found.published["alpaca-7b"]["win_rate"] == float(published["alpaca-7b"]["win_rate"])
    assert found.board["baseline"] == "gpt4_1106_preview"
