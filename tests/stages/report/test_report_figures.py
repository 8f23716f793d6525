"""B6's figure sections from its shards' documents: what was set aside summed over shards, replies shown only when
some ended inside their reasoning or were cut, generation only for generated models."""
from stages.report.figures import generation_section, replies_section, reply_counts, set_aside_counts, summed


def _counts(**counts):
    return {"header": {"counts": counts}}


def test_what_was_set_aside_is_summed_over_shards():
    predictions = [_counts(rejected=2), _counts(rejected=1)]
    joins = [_counts(missing_predictions=3, unmatched_predictions=0), _counts(missing_predictions=2,
                                                                               unmatched_predictions=1)]
    assert set_aside_counts({"rejected": 1, "accepted": 9}, predictions, joins) == {
        "question_rows_rejected": 1, "prediction_rows_rejected": 3, "missing_predictions": 5,
        "unmatched_predictions": 1}
    assert summed([{"a": 1}, {"a": 2, "b": 1}]) == {"a": 3, "b": 1}


def test_replies_are_reported_only_when_some_end_inside_their_reasoning_or_are_cut():
    plain = [{"header": {"counts": {}}}]
    joins = [_counts(replies=4, unfinished_reasoning=0), _counts(replies=3)]
    counts = reply_counts(plain, joins)
    assert counts == {"replies": 7, "unfinished_reasoning": 0, "cut_at_max_tokens": 0}
    assert replies_section({"m": counts}) == {}
    cut = reply_counts([{"header": {"counts": {}, "generation": {"cut_at_max_tokens": 2}}}], joins)
    assert replies_section({"m": counts, "g": cut}) == {"replies": {"m": counts, "g": {**counts,
                                                                                        "cut_at_max_tokens": 2}}}


def test_generation_is_said_for_generated_models_only():
    asked = {"asked": 3}
    predictions = {"file": [{"header": {}}], "live": [{"header": {"generation": asked}}, {"header": {}}]}
    assert generation_section(predictions) == {"generation": {"live": asked}}
    assert generation_section({"file": [{"header": {}}]}) == {}
