"""#80: SimpleQA's and HLE's figures equal their own scripts' on the same grades (reference.json, made by
make_reference.py running simple-evals' SimpleQAEval and HLE's dump_metrics / calib_err)."""
import json
from pathlib import Path

import pytest

from stages.judge.tasks.hle import calibration_error, hle_figures
from stages.judge.tasks.simpleqa import simpleqa_figures, simpleqa_grade

REFERENCE = json.loads((Path(__file__).parent / "reference.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", REFERENCE["simpleqa"], ids=lambda case: f"{len(case['replies'])} replies")
def test_simpleqa_grades_and_figures_are_simple_evals(case):
    verdicts = [simpleqa_grade(reply) for reply in case["replies"]]
    assert [v.details["letter"] for v in verdicts] == case["grades"]
    figures = simpleqa_figures([v.details for v in verdicts], 0)
    assert {name: figures[name] for name in case["aggregate_metrics"]} == case["aggregate_metrics"]
    assert (figures["accuracy_given_attempted"], figures["f1"]) == (case["accuracy_given_attempted"], case["f1"])


def test_a_grader_reply_without_a_letter_is_not_attempted_and_counted():
    figures = simpleqa_figures([simpleqa_grade(reply).details for reply in ("A", "no idea", "B")], 1)
    assert (figures["n"], figures["defaulted"], figures["is_not_attempted"]) == (4, 1, 0.5)


@pytest.mark.parametrize("case", REFERENCE["hle"], ids=lambda case: f"{len(case['judged'])}+{case['missing']}")
def test_hle_accuracy_interval_and_calibration_are_its_scripts(case):
    details = [{"correct": "yes" if right else "no", "confidence": confidence, "extracted_final_answer": "x"}
               for right, confidence in case["judged"]]
    figures = hle_figures(details, case["missing"])
    if "fails" in case:  # the script has no bin below β = 100 answers and fails; evalpipe says n/a
        assert figures["calibration_error"] is None and len(case["judged"]) < 100
        return
    assert (figures["accuracy"], figures["half_width"], figures["calibration_error"]) == (
        case["accuracy"], case["half_width"], case["calibration_error"])
    assert figures["calibration_error_unrounded"] == pytest.approx(100 * case["calib_err"], abs=1e-12)
    assert calibration_error([c / 100 for _, c in case["judged"]], [r for r, _ in case["judged"]]) == \
        pytest.approx(case["calib_err"], abs=1e-15)
