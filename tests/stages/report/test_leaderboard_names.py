"""A leaderboard's report says only the names it has: no "judge None" (AlignBench imported without one), no
"baseline None" (MT-Bench's single grading), no "task None"; a baseline model is a baseline row, not an n/a figure."""
from stages.report.aggregate import build_summary, harness_line, leaderboard_tables, render_summary
from stages.report.headline import leaderboard_caption


def _report(judge, baseline):
    section = {"title": "AlignBench", "judge": judge, "baseline": baseline, "columns": ["总分"], "headline": "总分",
               "unit": "score", "notes": [], "published": {},
               "models": {"m": {"总分": 6.5, "not_judged": 0}, **({baseline: {"总分": None, "not_judged": 0}}
                                                                   if baseline else {})}}
    models = {"m": {"rows": 10}, **({baseline: {"rows": 10}} if baseline else {})}
    return {"dataset": "board", "kind": "instruction", "leaderboards": {"alignbench": section}, "models": models,
            "comparison": {"primary_metric": "judge:score"}, "set_aside": {}}


def test_a_caption_names_only_what_the_leaderboard_has():
    assert leaderboard_caption({"judge": None, "baseline": None}) == ""
    assert leaderboard_caption({"judge": "gpt-4", "baseline": None}) == "judge gpt-4"
    assert leaderboard_caption({"judge": "gpt-4", "baseline": "gpt-3.5"}) == "judge gpt-4, baseline gpt-3.5"
    assert leaderboard_tables(_report(None, None)).startswith("AlignBench:\n")
    assert leaderboard_tables(_report("gpt-4-0613", None)).startswith("AlignBench (judge gpt-4-0613):\n")
    assert "None" not in leaderboard_tables(_report(None, "gpt4_turbo"))


def test_a_baseline_is_a_baseline_row_and_a_missing_task_is_not_named():
    summary = render_summary(build_summary([_report("j", "gpt4_turbo")]))
    row = next(line for line in summary.splitlines() if "gpt4_turbo" in line)
    assert "(baseline)" in row and "n/a" not in row
    assert "6.5000" in next(line for line in summary.splitlines() if " m " in f" {line} ")
    assert harness_line("m", {"tool": "alpaca-eval", "metrics": {"win_rate": 50.0}}) == \
        "m: imported from alpaca-eval; it reported win_rate 50"
