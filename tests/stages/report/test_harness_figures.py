"""An imported harness's figures in report.html: a table row per metric beside evalpipe's, differences marked
(issue #81: they were one run-on paragraph)."""
import re

from stages.report.harness_figures import harness_figure_rows
from stages.report.html import render_html_report


def _report():
    provenance = {"tool": "lm-eval", "version": "0.4.13", "task": "squad_local",
                  "metrics": {"exact_match": 0.3871, "f1": 52.5, "contains": "inf"}}
    return {"dataset": "squad_local", "kind": "qa", "comparison": {"primary_metric": "f1"}, "set_aside": {},
            "models": {"bert": {"exact_match": 0.4194, "f1": 0.5612, "rows": 31}}, "harness": {"bert": provenance}}


def test_a_row_per_metric_with_the_difference_only_where_both_are_shares():
    rows = harness_figure_rows(_report()["harness"]["bert"], _report()["models"]["bert"], ["exact_match", "f1"])
    assert [(r["metric"], r["harness"], r["evalpipe"], r["differs"]) for r in rows] == [
        ("exact_match", "0.3871", "0.4194", True), ("f1", "52.5", "0.5612", False), ("contains", "inf", "–", False)]
    assert abs(rows[0]["difference"] - 0.0323) < 1e-12 and rows[1]["difference"] is None


def test_equal_figures_are_not_marked():
    rows = harness_figure_rows({"metrics": {"acc": 0.25, "acc_norm": 0.5}}, {"acc": 0.25}, ["acc", "mc_rate"])
    assert [(r["metric"], r["differs"]) for r in rows] == [("acc", False), ("acc_norm", False), ("mc_rate", False)]
    assert rows[0]["difference"] == 0.0


def test_the_page_shows_the_table_with_the_differing_row_marked():
    page = render_html_report([_report()], {"title": "t"})
    table = page[page.index('<table class="sortable harness-figures">'):]
    table = table[:table.index("</table>")]
    rows = re.findall(r"<tr( class=\"differs\")?><td>bert</td><td>lm-eval 0.4.13</td><td>squad_local</td>"
                      r"<td>(\w+)</td><td class=\"num\">([^<]*)</td><td class=\"num\">([^<]*)</td>"
                      r"<td class=\"num\" data-value=\"[^\"]*\">([^<]*)</td></tr>", table)
    assert rows == [(' class="differs"', "exact_match", "0.3871", "0.4194", "+0.0323"),
                    ("", "f1", "52.5", "0.5612", "–"), ("", "contains", "inf", "–", "–")]
