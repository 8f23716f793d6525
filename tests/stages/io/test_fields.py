import math

from stages import get_ground_truth_answer, get_record_id, gold_answer_texts


def test_original_row_human_label_comes_first():
    record = {"original_row": {"人工评测结果": "F", "label": "T"}, "答案": "T", "answer": "x"}
    assert get_ground_truth_answer(record) == "F"


def test_root_chinese_fields_before_english():
    assert get_ground_truth_answer({"人工评测结果": "T", "answer": "F"}) == "T"
    assert get_ground_truth_answer({"标准答案": "巴黎", "answer": "Paris"}) == "巴黎"
    assert get_ground_truth_answer({"答案": "北京", "label": "x"}) == "北京"


def test_nan_and_empty_values_are_skipped():
    record = {"original_row": {"人工评测结果": math.nan, "标准答案": "  "}, "答案": "", "answer": "Paris"}
    assert get_ground_truth_answer(record) == "Paris"
    assert get_ground_truth_answer({"original_row": {"label": None}}) is None


def test_english_fields_order():
    assert get_ground_truth_answer({"answers": ["a", "b"], "label": "SUPPORTS"}) == ["a", "b"]
    assert get_ground_truth_answer({"label": "SUPPORTS"}) == "SUPPORTS"


def test_gold_texts_from_every_shape():
    assert gold_answer_texts([{"text": "Denver", "answer_start": 3}, {"text": "Broncos"}]) == ["Denver", "Broncos"]
    assert gold_answer_texts([{"number": "", "spans": ["New", "York"]}]) == ["New York"]
    assert gold_answer_texts(1969.0) == ["1969"]
    assert gold_answer_texts(None) == []


def test_record_ids():
    assert get_record_id({"id": 7}, 3) == "7"
    assert get_record_id({"qid": "a1"}, 3) == "a1"
    assert get_record_id({"row_id": 5.0}, 3, "row_id") == "5"
    assert get_record_id({"id": 0}, 12, "@line") == "12"
    assert get_record_id({"name": "x"}, 3) is None
