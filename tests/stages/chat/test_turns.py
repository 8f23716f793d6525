"""Multi-turn items: one case per turn in the item's own conversation, and answers gathered back per item."""
from stages.chat.turns import gather_turns, turn_cases
from stages.core.records import LoadResult, Reject


def test_each_turn_is_a_case_in_its_items_conversation():
    cases = turn_cases(["q1", "q2"], [["hi", "and then?"], None], [None, "single"], str.upper)
    assert cases == [{"id": "q1#turn1", "conversation": "q1", "prompt": "HI"},
                     {"id": "q1#turn2", "conversation": "q1", "prompt": "AND THEN?"},
                     {"id": "q2", "conversation": "q2", "prompt": "SINGLE"}]


def test_answers_are_put_back_per_item_and_a_failed_turn_sets_its_item_aside():
    loaded = LoadResult(columns={"id": ["q1#turn1", "q1#turn2", "q2", "q3#turn1"],
                                 "prediction": ["a1", "a2", "b", "c1"]}, input_rows=5,
                        rejects=[Reject("journal.jsonl", None, "HTTP 500", "q3#turn2")])
    result = gather_turns(loaded, ["q1", "q2", "q3", "q4"], [["t1", "t2"], None, ["t1", "t2"], None])
    assert result.columns["id"] == ["q1", "q2"]
    assert result.columns["prediction"] == ["a2", "b"] and result.columns["turns"] == [["a1", "a2"], None]
    assert [(r.source, r.reason, r.location) for r in result.rejects] == [
        ("journal.jsonl", "turn 2: HTTP 500", "q3"), ("", "not asked", "q4")]
    assert result.input_rows == 4
