"""acc, acc_norm and acc_bytes as lm-eval computes them, worked out by hand: characters against UTF-8 bytes on
non-ASCII choices, lm-eval's stderr, MMLU's subjects and groups (micro and macro), B4 rows and predictions read from
a file."""
import json
import math
import statistics

import pytest

from stages.kinds import get_kind
from stages.kinds.loglikelihood.figures import argmax, choice_picks, lm_eval_stderr, pooled_stderr

KIND = get_kind("loglikelihood")


def test_characters_and_bytes_pick_differently_on_non_ascii_choices():
    # "éé": 2 characters, 4 bytes; "abc": 3 and 3. Sums -2.0 / -2.9: per character -1.0 / -0.967, per byte -0.5 / -0.967
    assert choice_picks([-2.0, -2.9], ["éé", "abc"]) == {"chosen": 0, "chosen_norm": 1, "chosen_bytes": 0}


def test_ties_go_to_the_first_choice_as_numpys_argmax():
    assert argmax([-1.0, -1.0, -3.0]) == 0 and argmax([float("nan"), -2.0]) == 1


def test_an_empty_choice_counts_minus_infinity_per_character():
    assert choice_picks([-1.0, -5.0], ["", "abcde"])["chosen_norm"] == 1


def test_stderr_is_the_sample_standard_deviation_over_root_n():
    assert lm_eval_stderr(3, 4) == pytest.approx(statistics.stdev([1, 1, 1, 0]) / math.sqrt(4))
    assert lm_eval_stderr(1, 1) is None


def test_pooled_stderr_as_lm_evals_pooled_sample_stderr():
    sizes, errors = [4, 6], [0.25, 0.2]
    expected = math.sqrt((3 * 0.25 ** 2 * 4 + 5 * 0.2 ** 2 * 6) / (10 - 2) / 10)
    assert pooled_stderr(sizes, errors) == pytest.approx(expected)


def _joined(rows):
    """B3's input: items (choices, gold, subject) with their predictions."""
    names = ("id", "choices", "gold", "subject", "loglikelihoods", "greedy")
    return {name: [row[i] for row in rows] for i, name in enumerate(names)}


def _run(rows, **params):
    normalized, info = KIND.normalize(_joined(rows), params)
    matched, _ = KIND.match(normalized, params)
    scored, metrics = KIND.score(matched, params)
    return matched, scored, metrics, info


def test_b4_rows_and_figures_over_mmlu_subjects_and_groups():
    abcd = ["A", "B", "C", "D"]
    rows = [("0", abcd, 0, "abstract_algebra", [-1.0, -2.0, -3.0, -4.0], [True, False, False, False]),
            ("1", abcd, 1, "abstract_algebra", [-1.0, -2.0, -3.0, -4.0], [True, False, False, False]),
            ("2", abcd, 2, "anatomy", [-5.0, -4.0, -1.0, -2.0], [False, False, True, False]),
            ("3", abcd, 3, "philosophy", [-1.0, -2.0, -3.0, -0.5], [False, False, False, True])]
    matched, scored, metrics, _ = _run(rows, acc_bytes=True)
    assert matched["chosen"] == [0, 0, 2, 3] and matched["correct"] == [True, False, True, True]
    assert matched["chosen_norm"] == matched["chosen"] and matched["correct_norm"] == matched["correct"]
    assert matched["greedy"][2] == [False, False, True, False] and matched["status"][1] == "wrong"
    assert scored["acc"] == [1.0, 0.0, 1.0, 1.0] and "acc_bytes" in scored
    assert metrics["acc"] == 0.75 and metrics["acc_bytes"] == 0.75
    assert metrics["by_subject"]["abstract_algebra"]["acc"] == 0.5 and metrics["by_subject"]["anatomy"]["acc"] == 1.0
    stem = metrics["by_group"]["mmlu_stem"]
    assert stem["rows"] == 3 and stem["acc"] == pytest.approx(2 / 3)  # micro: every item counts once
    assert stem["acc_macro"] == pytest.approx((0.5 + 1.0) / 2)  # macro: the mean of the subjects
    assert metrics["by_group"]["mmlu_humanities"]["acc"] == 1.0
    assert metrics["acc_macro"] == pytest.approx((0.5 + 1.0 + 1.0) / 3)


def test_without_subjects_no_groups_and_acc_bytes_only_when_asked():
    rows = [("a", ["x", "yy"], 1, None, [-1.0, -1.5], [True, False]),
            ("b", ["x", "yy"], 0, None, [-1.0, -1.5], [True, False])]
    _, scored, metrics, _ = _run(rows, acc_bytes=False)
    assert (metrics["acc"], metrics["acc_norm"]) == (0.5, 0.5) and "by_group" not in metrics
    assert "acc_bytes" not in metrics and set(scored) == {"id", "acc", "acc_norm"}


def test_a_prediction_with_another_count_of_choices_is_unscored_not_guessed():
    rows = [("a", ["x", "y", "z"], 0, None, [-1.0, -2.0], [True, False]), ("b", ["x"], 0, None, None, None)]
    matched, _, metrics, info = _run(rows)
    assert info == {"choice_count_mismatches": 1}
    assert matched["status"] == ["missing", "missing"] and metrics["acc"] == 0.0


def test_predictions_from_a_file_set_aside_what_cannot_be_read(tmp_path):
    path = tmp_path / "m.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in [
        {"id": "a", "loglikelihoods": [-1.5, -0.5], "greedy": [False, True]},
        {"id": "b", "loglikelihoods": [-1, "x"]},
        {"id": "c", "loglikelihoods": [-1.0], "greedy": [1]},
        {"id": "a", "loglikelihoods": [-1.0]},
        {"id": "d", "loglikelihoods": [-2.0, -3.0]}]) + "\n")
    loaded = KIND.load_predictions(path, {})
    assert loaded.columns["id"] == ["a", "d"] and loaded.columns["greedy"] == [[False, True], None]
    assert loaded.columns["loglikelihoods"][0] == [-1.5, -0.5]
    assert [(r.line, r.reason) for r in loaded.rejects] == [
        (2, "loglikelihoods holds a value that is not a number"), (3, "greedy holds a value that is not true / false"),
        (4, "duplicate id 'a'")]
