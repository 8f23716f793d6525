import pytest

from stages import normalize_cjk, normalize_squad, qa_em_f1, token_f1


def test_squad_normalization_matches_official_rules():
    assert normalize_squad("The  Denver Broncos!") == "denver broncos"
    assert normalize_squad("don't") == "dont"  # punctuation deleted, not replaced by a space
    assert normalize_squad("an apple, a pear") == "apple pear"
    assert normalize_squad("theatre") == "theatre"  # articles only as whole words


@pytest.mark.parametrize(
    "prediction, golds, expected",
    [
        ("Denver Broncos", ["Denver Broncos", "Broncos"], (1.0, 1.0)),
        # 1 common token: precision 1/2, recall 1/1 → F1 = 2·0.5·1/1.5 = 2/3
        ("the Broncos team", ["Broncos"], (0.0, 2 / 3)),
        # max over golds: second gold shares 2 of 3 tokens → P=2/2, R=2/3 → F1 = 0.8
        ("Santa Clara", ["Levi's Stadium", "Santa Clara California"], (0.0, 0.8)),
        ("", ["Paris"], (0.0, 0.0)),
    ],
)
def test_qa_em_f1_squad(prediction, golds, expected):
    em, f1 = qa_em_f1(prediction, golds, mode="squad")
    assert em == expected[0]
    assert f1 == pytest.approx(expected[1])


def test_missing_prediction_scores_zero():
    assert qa_em_f1(None, ["Paris"]) == (0.0, 0.0)


def test_multiset_overlap_counts_repeats_once_each():
    # prediction "a a b" vs gold "a b b" (no articles: use x/y): overlap {x:1, y:1} = 2 → P=2/3, R=2/3
    assert token_f1("x x y", "x y y") == pytest.approx(2 / 3)


def test_hotpot_yes_no_rule():
    assert qa_em_f1("yes it is", ["yes"], mode="squad") == (0.0, pytest.approx(0.5))
    assert qa_em_f1("yes it is", ["yes"], mode="hotpot") == (0.0, 0.0)
    assert qa_em_f1("no", ["yes"], mode="hotpot") == (0.0, 0.0)
    assert qa_em_f1("Yes.", ["yes"], mode="hotpot") == (1.0, 1.0)
    # not special on either side: ordinary F1
    assert qa_em_f1("the big cat", ["cat"], mode="hotpot")[1] == pytest.approx(2 / 3)


def test_cjk_mode():
    assert qa_em_f1("巴黎。", ["巴黎"], mode="cjk") == (1.0, 1.0)
    assert qa_em_f1("Ｐａｒｉｓ", ["Paris"], mode="cjk") == (1.0, 1.0)
    # 北京故宫博物院 (7 chars) vs 故宫博物院 (5): overlap 5 → P=5/7, R=1 → F1 = 10/12
    em, f1 = qa_em_f1("北京故宫博物院", ["故宫博物院"], mode="cjk")
    assert em == 0.0 and f1 == pytest.approx(2 * (5 / 7) / (5 / 7 + 1))
    assert normalize_cjk("GPT-4 模型，发布于2023年！") == "gpt4 模 型 发 布 于 2023 年"


def test_peers_fail_where_cjk_mode_succeeds():
    assert qa_em_f1("巴黎。", ["巴黎"], mode="squad")[0] == 0.0


def test_unknown_mode_is_an_error():
    with pytest.raises(ValueError, match="unknown QA mode"):
        qa_em_f1("a", ["a"], mode="bleu")


def test_a_blank_gold_is_set_aside_unless_the_dataset_scores_it_as_the_empty_answer(tmp_path):
    import json

    from stages import get_kind
    from stages.core.records import as_table
    from stages.io.loading import load_questions

    kind = get_kind("qa")
    path = tmp_path / "questions.jsonl"
    rows = [{"id": "a", "question": "q", "answers": ["x"]}, {"id": "b", "question": "q", "answers": ""},
            {"id": "c", "question": "q", "answers": [""]}, {"id": "d", "question": "q", "answers": []},
            {"id": "e", "question": "q"}]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    fields = {"id_field": None, "question_field": None, "gold_field": "answers", "prediction_field": None}
    default = load_questions(path, kind, fields, params=kind.params_for("B1", kind.defaults))
    assert as_table(default.columns).column("id").to_pylist() == ["a"]
    scored = load_questions(path, kind, fields, params=kind.params_for("B1", {**kind.defaults,
                                                                              "blank_gold": "empty_answer"}))
    table = as_table(scored.columns)
    assert list(zip(table.column("id").to_pylist(), table.column("golds").to_pylist())) == [
        ("a", ["x"]), ("b", [""]), ("c", [""]), ("d", [""])]
    assert [reject.reason for reject in scored.rejects] == ["no gold answer"]  # e has no gold field at all


def test_the_empty_answer_scores_one_for_an_empty_reply_and_zero_for_any_other():
    import pyarrow as pa

    from stages import get_kind

    kind = get_kind("qa")
    joined = pa.table({"id": ["a", "b", "c"], "question": ["q"] * 3, "golds": [[""], [""], ["Paris"]],
                       "prediction": ["", "Paris", "the Paris"]})
    normalized, _ = kind.normalize(joined, kind.defaults)
    matched, _ = kind.match(normalized, kind.defaults)
    assert matched.column("exact_match").to_pylist() == [1.0, 0.0, 1.0]
    assert matched.column("f1").to_pylist() == [1.0, 0.0, 1.0]
    assert matched.column("label").to_pylist() == ["correct", "wrong", "correct"]
