"""AlpacaEval 2 scored for one model: recorded preferences first, the rest asked of the annotator with the model's
answer shown first or second as the item's id draws it, and the win rate as AlpacaEval computes it."""
import json

import pytest

from stages.core.errors import UsageError
from stages.leaderboards.alpaca_eval.rules import TEMPLATE, shows_model_first
from stages.leaderboards.board import get_leaderboard
from tests.stages.leaderboards.scoring_double import ScoringDouble

ITEMS = [str(i) for i in range(6)]


def _scoring(tmp_path, judge):
    (tmp_path / "prompt.json").write_text(json.dumps({"system": "Compare.", "template": TEMPLATE}))
    rows = {"id": ITEMS, "question": [f"instruction {i}" for i in ITEMS]}
    turns = {"m": {i: [f"answer {i}" * 2] for i in ITEMS}, "base": {i: [f"b{i}"] for i in ITEMS[:5]}}
    return ScoringDouble("m", {"name": "alpaca_eval", "baseline": "base", "prompts": "prompt.json"}, rows, turns,
                         tmp_path, recorded_verdicts={("0", 1): 2.0, ("1", 1): 1.0}, judge=judge)


def test_recorded_then_asked_preferences_make_the_win_rate(tmp_path):
    def annotator(call):  # prefers the model's answer on items 2 and 3, the baseline's on 4
        model_letter = "m" if shows_model_first(call.item) else "M"
        return model_letter if call.item in ("2", "3") else ("M" if model_letter == "m" else "m")

    scoring = _scoring(tmp_path, annotator)
    scored = get_leaderboard("alpaca_eval").score(scoring)
    assert [c.item for c in scoring.asked] == ["2", "3", "4"]  # 5 has no baseline answer; 0 and 1 were recorded
    for call in scoring.asked:
        first, second = ("answer", "b") if shows_model_first(call.item) else ("b", "answer")
        assert call.prompt.index(f"\n{first}") < call.prompt.index(f"\n{second}")
    assert dict(zip(scored.rows["id"], scored.rows["preference"])) == {"0": 2.0, "1": 1.0, "2": 2.0, "3": 2.0,
                                                                      "4": 1.0}
    figures = scored.body["figures"]
    assert figures["win_rate"] == pytest.approx(60.0) and (figures["n_wins"], figures["n_wins_base"]) == (3, 2)
    assert scored.counts["both_answered"] == 5 and scored.counts["recorded"] == 2
    assert get_leaderboard("alpaca_eval").item_values(scored.rows)[2] == [1.0, 0.0, 1.0, 1.0, 0.0]


def test_a_table_needs_recorded_verdicts_or_the_annotators_template():
    with pytest.raises(UsageError, match="needs verdicts .* prompts .* or both"):
        get_leaderboard("alpaca_eval").check_table({"name": "alpaca_eval", "baseline": "b"}, "d.toml")
    assert get_leaderboard("alpaca_eval").recorded_value({"preference": 0}) == (1.5, None)
    assert get_leaderboard("alpaca_eval").recorded_value({"preference": 3})[1].startswith("preference 3 is not")
