import pytest

from stages.kinds.annotation.text_span import (
    char_position_to_sentence_index,
    evaluate_text_spans,
    matched_span_iou,
    sentence_masses,
    text_to_sentence_indices,
)

TEXT = "佩奇在泥坑里跳。乔治也跳了！妈妈笑了。爸爸说：“小心点。”他们回家了。"  # sentences at 0, 8, 14, 19, 29


def _event(event_id, start=None, end=None):
    return {"id": event_id, "text_span": None if start is None else {"start": start, "end": end}}


def test_sentences_in_chinese_and_english():
    assert text_to_sentence_indices(TEXT) == [(0, 8), (8, 14), (14, 19), (19, 29), (29, 35)]
    english = "Peppa jumps. George jumps too! Mummy laughs? Yes"
    assert [english[a:b].strip() for a, b in text_to_sentence_indices(english)] == [
        "Peppa jumps.", "George jumps too!", "Mummy laughs?", "Yes"]
    assert text_to_sentence_indices("3.14 is pi. Done.") == [(0, 11), (11, 17)]  # no split inside a number


def test_char_position_to_sentence_index():
    sentences = text_to_sentence_indices(TEXT)
    assert [char_position_to_sentence_index(p, sentences) for p in (0, 7, 8, 34)] == [0, 0, 1, 4]
    assert char_position_to_sentence_index(35, sentences) is None
    assert char_position_to_sentence_index(-1, sentences) is None


def test_spans_become_sentence_segment_masses():
    sentences = text_to_sentence_indices(TEXT)
    assert sentence_masses([(0, 14), (14, 29)], sentences) == [2, 2, 1]
    assert sentence_masses([], sentences) == [5]


def test_boundary_counts_and_iou_by_hand():
    gold = [_event("e1", 0, 15), _event("e2", 15, 20)]  # sentence cuts at 2, 3, 4
    predicted = [_event("e1", 0, 8), _event("e2", 8, 20)]  # cuts at 1, 4
    result = evaluate_text_spans(predicted, gold, TEXT)
    assert (result["exact_matches"], result["near_misses"], result["insertions"], result["deletions"]) == (1, 1, 0, 1)
    assert result["boundary_score"] == pytest.approx((3 - 1 - 0.5) / 3)
    assert result["overlap_ratio"] == pytest.approx((8 / 15 + 5 / 12) / 2)


def test_identical_spans_score_one():
    events = [_event("e1", 0, 14), _event("e2", 14, 29)]
    result = evaluate_text_spans(events, events, TEXT)
    assert result["boundary_score"] == 1.0 and result["overlap_ratio"] == 1.0 and result["insertions"] == 0


def test_missing_gold_span_is_left_out_on_both_sides():
    gold = [_event("e1", 0, 14), _event("e2")]
    predicted = [_event("e1", 0, 14), _event("e2", 19, 35)]  # e2's prediction is not an insertion
    result = evaluate_text_spans(predicted, gold, TEXT)
    assert result["boundary_score"] == 1.0 and result["insertions"] == 0 and result["events_scored"] == 1


def test_all_gold_spans_missing_is_gt_incomplete():
    result = evaluate_text_spans([_event("e1", 0, 8)], [_event("e1")], TEXT)
    assert result["gt_incomplete"] is True and result["boundary_score"] is None and result["overlap_ratio"] is None


def test_bad_spans_are_flagged_per_event():
    gold = [_event("e1", 0, 14)]
    predicted = [_event("e1", 20, 10), _event("e2", 0, 99), {"id": "e3", "text_span": {"start": "0", "end": 3}}]
    result = evaluate_text_spans(predicted, gold, TEXT)
    assert [(f["event"], f["reason"]) for f in result["flags"]] == [
        ("e1", "start 20 > end 10"), ("e2", "span 0–99 lies outside the text (length 35)"),
        ("e3", "start and end must be integers")]
    assert result["overlap_ratio"] == 0.0 and result["deletions"] == 1


def test_matched_iou_is_one_to_one():
    score, pairs = matched_span_iou([(0, 10), (0, 10)], [(0, 10), (20, 30)])
    assert score == pytest.approx(0.5) and len(pairs) == 2
