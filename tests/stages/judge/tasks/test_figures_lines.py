"""#80: each judged task's figures line, printed indented under its judge's line in B6_report.txt and the --verbose
console, stays within 160 columns at the benchmarks' full sizes (SimpleQA's 4,326 questions, HLE's 2,500)."""
from stages.judge.tasks.hle import hle_figures, hle_line
from stages.judge.tasks.simpleqa import simpleqa_figures, simpleqa_line

INDENT = 2  # stages/report/aggregate.py puts the line under the judge's, two spaces in


def test_simpleqa_line_fits_160_columns_and_says_what_not_attempted_holds():
    # 4,326 items: 1,000 graded A, 1,326 B, 1,000 C of which 1,000 read from no letter, 1,000 without an answer
    details = ([{"letter": "A", "defaulted": False}] * 1000 + [{"letter": "B", "defaulted": False}] * 1326
               + [{"letter": "C", "defaulted": True}] * 1000)
    figures = simpleqa_figures(details, unanswered=1000)
    line = simpleqa_line(figures)
    assert INDENT + len(line) <= 160, line
    assert line == ("SimpleQA n=4326: correct 0.231, incorrect 0.307, not attempted 0.462 (1000 unanswered, 1000 "
                    "with no letter), correct given attempted 0.430, F-score 0.301")


def test_hle_line_fits_160_columns_with_or_without_a_calibration_error():
    judged = [{"correct": "yes" if i % 3 else "no", "confidence": 90} for i in range(99)]
    few = hle_line(hle_figures(judged, unanswered=2401))
    many = hle_line(hle_figures(judged * 25, unanswered=25))
    assert max(INDENT + len(few), INDENT + len(many)) <= 160, (few, many)
    assert few == ("HLE n=2500: accuracy 2.64% +/- 0.63% (2401 without an answer counted wrong), calibration error "
                   "n/a (under 100 judged answers: calib_err has no bin)")
    # 1,650 of 2,500 right: 66.0% +/- 1.96 * sqrt(66 * 34 / 2500) = 1.86; every confidence 0.9, about 0.23 off
    assert many.startswith("HLE n=2500: accuracy 66.0% +/- 1.86% (25 without an answer counted wrong), calibration "
                           "error ") and 20 <= float(many.rsplit(" ", 1)[1]) <= 26
