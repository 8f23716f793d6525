"""The math kind's stages on MATH-500 (real data): every official solution read as a reply is right against its own
answer, and against another problem's answer only where the two answers are the same value."""
import json
import re

import pyarrow as pa
import pytest

from stages import get_kind

pytest.importorskip("math_verify")


def _problems(real_data):
    return [json.loads(line) for line in (real_data / "math" / "math500.jsonl").read_text().splitlines()]


def _matched(rows, replies, states=None):
    kind = get_kind("math")
    joined = {"id": [str(i) for i in range(len(rows))], "golds": [[r["answer"]] for r in rows],
              "prediction": replies, "subject": [r["subject"] for r in rows], "level": [str(r["level"]) for r in rows]}
    if states is not None:
        joined["reasoning"] = states
    normalized, _ = kind.normalize(pa.table(joined), {})
    matched, info = kind.match(normalized, {"compare_seconds": 10.0})
    return matched.to_pydict(), info


def _same_value(first: str, second: str) -> bool:
    """Two MATH-500 answers written alike once spaces and a leading `x =` are dropped."""
    def bare(answer):
        return re.sub(r"^[a-z]\s*=", "", answer.replace(" ", ""))
    return bare(first) == bare(second)


def test_every_official_solution_is_right_against_its_own_answer(real_data):
    rows = _problems(real_data)
    matched, info = _matched(rows, [r["solution"] for r in rows])
    assert matched["correct"] == [True] * 500
    assert set(matched["how"]) == {"boxed"}
    assert info["not_compared"] == []


def test_a_solution_against_the_next_problems_answer_is_right_only_for_the_same_value(real_data):
    rows = _problems(real_data)
    shifted = rows[1:] + rows[:1]
    matched, _ = _matched(shifted, [r["solution"] for r in rows])
    right = {i for i, c in enumerate(matched["correct"]) if c}
    expected = {i for i, (r, s) in enumerate(zip(rows, shifted)) if _same_value(r["answer"], s["answer"])}
    assert right == expected
    assert len(expected) == 3


def test_rows_without_an_answer_say_why(real_data):
    rows = _problems(real_data)[:4]
    matched, _ = _matched(rows, ["", None, "I cannot solve it.", rows[3]["solution"]],
                          states=["unfinished", None, None, "closed"])
    assert matched["how"] == ["unfinished reasoning", "no reply", "no final answer", "boxed"]
    assert matched["correct"] == [False, False, False, True]
    assert matched["status"] == ["unparsed", "missing", "unparsed", "correct"]
    assert matched["reason"][:3] == ["unfinished reasoning", "no reply", "no final answer"]


def test_accuracy_by_subject_and_level_and_not_compared_left_out():
    kind = get_kind("math")
    matched = pa.table({"id": ["a", "b", "c", "d"], "gold": ["1"] * 4, "extracted": ["1", "2", "1", "1"],
                        "how": ["boxed"] * 4, "correct": [True, False, None, True],
                        "status": ["correct", "wrong", "not compared", "correct"], "reason": [""] * 4,
                        "subject": ["Algebra", "Algebra", "Geometry", "Geometry"], "level": ["1", "2", "2", None]})
    _, metrics = kind.score(matched, {})
    assert metrics["accuracy"] == pytest.approx(2 / 3)
    assert metrics["not_compared"] == 1
    assert metrics["by_subject"] == {"Algebra": {"rows": 2, "accuracy": 0.5}, "Geometry": {"rows": 1, "accuracy": 1.0}}
    assert metrics["by_level"] == {"1": {"rows": 1, "accuracy": 1.0}, "2": {"rows": 1, "accuracy": 0.0}}


def test_a_gold_without_an_answer_is_set_aside_with_its_reason_and_one_in_prose_is_read_by_its_cue():
    kind = get_kind("math")
    assert kind.check_gold(["five"], {}, {}) == "gold 'five' is a number in words: write it in digits"
    assert kind.check_gold([], {}, {}) == "no gold answer"
    assert kind.check_gold(["The answer is 5."], {}, {}) is None
    assert kind.columnar_question_fields(None, None, pa.array([["5"], ["\\frac{1}{2}", "0.5"]]), {}) == {}
    assert kind.columnar_question_fields(None, None, pa.array([["5"], ["five"]]), {}) is None  # row by row: set aside
    normalized, _ = kind.normalize(pa.table({"id": ["1", "2"], "golds": [["The answer is 5."], ["five"]],
                                             "prediction": ["\\boxed{5}", "\\boxed{5}"]}), {})
    assert normalized.column("gold").to_pylist() == ["5", None]
    matched, _ = kind.match(normalized, {"compare_seconds": 10.0})
    assert matched.column("correct").to_pylist() == [True, None]
    assert matched.column("reason").to_pylist()[1] == "boxed; not compared: the gold has no final answer"


def test_warm_up_gives_the_checkers_warm_parent_b1s_distinct_gold_answers_and_nothing_for_few_rows(monkeypatch):
    from stages.kinds.math import kind as math_kind

    given: list[list[str]] = []
    monkeypatch.setattr(math_kind, "start_checker_parent", given.append)
    kind = get_kind("math")
    golds = [["\\boxed{\\frac{1}{2}}"], ["7"], ["\\boxed{\\frac{1}{2}}"], [], ["five"]] * 50
    kind.warm_up(pa.table({"id": [str(i) for i in range(250)], "golds": golds}))
    kind.warm_up({"id": [str(i) for i in range(250)], "golds": golds})
    kind.warm_up(pa.table({"id": [str(i) for i in range(250)], "prediction": ["7"] * 250}))  # B2: no golds
    kind.warm_up(pa.table({"id": ["1"], "golds": [["3"]]}))  # too few rows for a second checker: nothing starts
    assert given == [["\\frac{1}{2}", "7"], ["\\frac{1}{2}", "7"], []]


def test_warm_up_gives_b3s_distinct_golds_then_final_answers_so_the_parent_parses_b4s_texts(monkeypatch):
    from stages.kinds.math import kind as math_kind

    given: list[list[str]] = []
    monkeypatch.setattr(math_kind, "start_checker_parent", given.append)
    rows = {"id": [str(i) for i in range(250)], "gold": ["7", "\\frac{1}{2}"] * 125,
            "extracted": ["0.5", None, "7", "8", "0.5"] * 50, "how": ["boxed"] * 250}
    get_kind("math").warm_up(pa.table(rows))
    get_kind("math").warm_up(rows)
    assert given == [["7", "\\frac{1}{2}", "0.5", "8"]] * 2


def test_warm_up_run_starts_the_parent_only_when_the_run_computes_a_math_b4_here(monkeypatch):
    from stages.kinds.math import kind as math_kind

    given: list[list[str]] = []
    monkeypatch.setattr(math_kind, "start_checker_parent", given.append)
    get_kind("math").warm_up_run(lambda: False)
    assert given == []
    get_kind("math").warm_up_run(lambda: True)
    assert given == [[]]
