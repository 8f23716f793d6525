"""Recorded verdicts read per model: MT-Bench's per item and turn, a −1 kept as unparsed, wrong rows set aside with
their line, other models' rows not read."""
import json

from stages.leaderboards.recorded import read_recorded, recorded_score


def test_scores_are_1_to_10_or_minus_1_for_none():
    assert recorded_score({"score": 7}) == (7.0, None) and recorded_score({"score": -1}) == (None, None)
    assert recorded_score({"score": 11}) == (None, "score 11 is not 1–10 (or −1 for none)")
    assert recorded_score({"score": True})[1] is not None


def test_mt_bench_rows_per_item_and_turn_with_the_wrong_ones_set_aside(tmp_path):
    rows = [{"id": "81", "model": "m", "turn": 1, "score": 8}, {"id": "81", "model": "m", "turn": 2, "score": -1},
            {"id": "81", "model": "m", "turn": 2, "score": 5}, {"id": "82", "model": "m", "turn": 3, "score": 5},
            {"model": "m", "turn": 1, "score": 5}, {"id": "83", "model": "other", "turn": 1, "score": "bad"}]
    path = tmp_path / "verdicts.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows) + "{cut\n")
    found, rejects = read_recorded(path, "m", "mt_bench")
    assert found == {("81", 1): 8.0, ("81", 2): None}
    assert [(r.line, r.reason) for r in rejects if not r.reason.startswith("malformed")] == [
        (3, "id '81' twice for model 'm' (turn 2)"), (4, "turn 3 is not 1 or 2"), (5, "no id")]
    assert [r.line for r in rejects][-1] == 7
