"""report.html's summary: qa's exact match and F1 both shown, a leaderboard's headline with the interval its rules
computed, a 1–10 rating on its own axis (never a percent one), the nightly trend of a leaderboard in its unit."""
import re

import pytest

from stages.report.html import nightly_values, summary_values

WILSON = {"low": 0.25, "high": 0.75, "n": 12, "method": "Wilson score"}


def _qa():
    return {"dataset": "squad", "kind": "qa", "models": {"m": {"exact_match": 0.5, "f1": 0.7, "rows": 12}},
            "comparison": {"primary_metric": "f1"}, "set_aside": {},
            "intervals": {"m": {"exact_match": WILSON, "f1": {**WILSON, "method": "percentile bootstrap"}}}}


def _board(name, unit, figures, interval=None):
    section = {"title": name, "judge": "gpt-4", "baseline": None, "columns": ["overall"], "headline": "overall",
               "unit": unit, "notes": [], "published": {},
               "models": {"m": {"overall": figures, "not_judged": 0}},
               "intervals": {"m": interval} if interval else {}}
    return {"dataset": name, "kind": "instruction", "leaderboards": {name: section}, "set_aside": {},
            "models": {"m": {"rows": 80, "answer_rate": 1.0}}, "comparison": {"primary_metric": "answer_rate"}}


def _chart(charts, title):
    return next((str(chart) for chart in charts if f'aria-label="{title}"' in str(chart)), None)


def test_qa_shows_exact_match_and_f1_each_with_its_interval():
    rows = summary_values([_qa()])["rows"]
    assert [(r["metric"], r["score"], r["interval"]["method"]) for r in rows] == [
        ("exact_match", 0.5, "Wilson score"), ("f1", 0.7, "percentile bootstrap")]
    assert [r["primary"] for r in rows] == [False, True]


def test_a_rating_is_drawn_on_its_own_axis_and_a_percent_figure_as_a_share():
    summary = summary_values([_qa(), _board("mt_bench", "score", 7.5, {"low": 7.1, "high": 7.9, "n": 160,
                                                                      "method": "percentile bootstrap"}),
                              _board("arena_hard", "percent", 62.5, {"low": 58.0, "high": 66.0, "n": 500,
                                                                     "method": "bootstrap"})])
    rows = {r["dataset"]: r for r in summary["rows"] if r["primary"]}
    assert (rows["mt_bench"]["score"], rows["mt_bench"]["as_rate"]) == (7.5, False)
    assert (rows["mt_bench"]["interval"]["low"], rows["mt_bench"]["interval"]["high"]) == (7.1, 7.9)
    assert rows["arena_hard"]["score"] == pytest.approx(0.625) and rows["arena_hard"]["as_rate"]
    assert rows["arena_hard"]["interval"]["low"] == pytest.approx(0.58)
    percent = _chart(summary["charts"], "Primary metric per dataset")
    ratings = _chart(summary["charts"], "Ratings per dataset (their own scale)")
    assert "mt_bench" not in percent and "arena_hard" in percent and "squad" in percent
    assert "mt_bench" in ratings and "squad" not in ratings
    assert re.findall(r'<text class="tick"[^>]*>([\d.%]+)</text>', ratings) == ["0", "2.5", "5", "7.5", "10"]


def test_the_nightly_trend_of_a_leaderboard_is_drawn_in_its_unit():
    nightly = {"nights": ["2026-11-25", "2026-11-26"], "comparisons": [], "previous": "2026-11-25",
               "trends": {"mt_bench": {"m": {"2026-11-25": 7.2, "2026-11-26": 7.5}},
                          "alpaca": {"m": {"2026-11-25": 25.0, "2026-11-26": 30.0}},
                          "squad": {"m": {"2026-11-25": 0.7, "2026-11-26": 0.72}}}}
    charts = [str(chart) for chart in nightly_values(nightly, [_board("mt_bench", "score", 7.5),
                                                              _board("alpaca", "percent", 30.0)])["charts"]]
    ticks = {re.search(r'aria-label="(\w+):', chart).group(1):
             re.findall(r'<text class="tick"[^>]*>([^<]*)</text>', chart) for chart in charts}
    assert not any("%" in tick for tick in ticks["mt_bench"])  # never 750%
    assert ticks["alpaca"][4] == "100.0%" and "30.0%" in _chart(charts, "alpaca: primary metric by night")
    assert ticks["squad"][4] == "100.0%"  # a dataset only the history has, its values rates


def test_counts_read_whole_with_separators_never_in_exponent_form():
    """Issue #81: the summary showed 4,440 rows as `4.44e+03`, a leaderboard's 12,000 items not judged as 12000."""
    from stages.report.html import render_html_report

    qa = _qa()
    qa["models"]["m"]["rows"] = 4440
    qa["set_aside"] = {"m": {"question_rows_rejected": 1200, "prediction_rows_rejected": 34}}
    board = _board("mt_bench", "score", 7.5)
    board["leaderboards"]["mt_bench"]["models"]["m"]["not_judged"] = 12000
    page = render_html_report([qa, board], {"title": "t"})
    assert "e+0" not in page
    summary = page[page.index("<h2>Summary</h2>"):page.index("</table>", page.index("<h2>Summary</h2>"))]
    assert '<td class="num" data-value="4440">4,440</td><td class="num" data-value="1234">1,234</td>' in summary
    assert '<td class="num" data-value="12000">12,000</td>' in page


def _bars(chart) -> list[str]:
    return re.findall(r"<title>[^<]* · ([^:<]+): [^<]*</title>", str(chart))


def test_a_datasets_chart_draws_its_kinds_published_figures_not_the_pipelines_rates():
    """Issue #81: every kind drew the same chart of every rate it had (answer_rate, a leaderboard's micro figures)."""
    from stages.report.html import dataset_values

    hellaswag = {"dataset": "hs", "kind": "loglikelihood", "comparison": {"primary_metric": "acc"}, "set_aside": {},
                 "models": {"m": {"acc": 0.5, "acc_norm": 0.6, "answer_rate": 1.0, "rows": 10}}}
    charts = dataset_values(hellaswag)["charts"]
    assert [_bars(chart) for chart in charts if 'aria-label="hs: metrics"' in str(chart)] == [["acc", "acc_norm"]]
    squad = dataset_values(_qa())["charts"]
    assert [_bars(chart) for chart in squad if 'aria-label="squad: metrics"' in str(chart)] == [["exact_match", "f1"]]
    board = dataset_values(_board("mt_bench", "score", 7.5))["charts"]
    assert not any('aria-label="mt_bench: metrics"' in str(chart) for chart in board)


def test_an_open_ended_dataset_draws_no_answer_rate_chart_and_no_section_shows_a_standard_error_as_a_score():
    from stages.report.html import dataset_values

    judged = {"dataset": "essays", "kind": "instruction", "comparison": {"primary_metric": "answer_rate"},
              "set_aside": {}, "models": {"m": {"rows": 10, "answered": 9, "answer_rate": 0.9}}}
    assert not any('aria-label="essays: metrics"' in str(chart) for chart in dataset_values(judged)["charts"])
    hellaswag = {"dataset": "hs", "kind": "loglikelihood", "comparison": {"primary_metric": "acc"}, "set_aside": {},
                 "models": {"m": {"acc": 0.5, "acc_stderr": 0.05, "acc_norm": 0.6, "acc_norm_stderr": 0.049,
                                  "rows": 100}}}
    assert dataset_values(hellaswag)["headline"] == ["acc", "acc_norm"]


def test_function_calling_and_tau2_draw_no_metrics_chart_where_their_own_tables_hold_the_figures():
    """Issue #81: BFCL's section charted a micro accuracy no one publishes; its summary columns are its figures."""
    from stages.report.html import dataset_values

    summary = {name: {"value": None, "reason": "not scored"} for name in
               ("non_live_ast", "live", "multi_turn", "relevance", "irrelevance", "overall")}
    bfcl = {"dataset": "bfcl", "kind": "function_calling", "comparison": {"primary_metric": "accuracy"},
            "set_aside": {}, "models": {"m": {"rows": 4, "accuracy": 0.5, "answer_rate": 1.0, "by_category": {},
                                              "summary": summary}}}
    assert not any('aria-label="bfcl: metrics"' in str(chart) for chart in dataset_values(bfcl)["charts"])
    tau2 = {"dataset": "t", "kind": "tau2", "comparison": {"primary_metric": "pass_hat_1"}, "set_aside": {},
            "models": {"m": {"rows": 2, "tasks": 2, "trials": 4, "pass_hat_k": {"1": 0.5}, "avg_reward": 0.5,
                             "pass_hat_1": 0.5, "boards": []}}}
    assert not any('aria-label="t: metrics"' in str(chart) for chart in dataset_values(tau2)["charts"])
    bfcl["models"]["m"].pop("summary")  # a report without BFCL's summary (an older one): its chart as before
    assert any('aria-label="bfcl: metrics"' in str(chart) for chart in dataset_values(bfcl)["charts"])
