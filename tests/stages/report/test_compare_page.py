"""compare.html's page and console lines, rendered without a run: a comparison the nightly left untested (no p-value
adjusted) shows dashes; a link too wide for the console is named by the page's file name, then cut."""
from stages.report.compare_html import flip_links, render_compare_html

RUN = {"title": "t", "correction": "bh", "a": {"name": "a", "report": None}, "b": {"name": "b", "report": None}}


def test_a_comparison_without_an_adjusted_p_value_shows_dashes():
    untested = {"dataset": "d", "model": "m", "metric": "acc", "paired_items": 0, "before": None, "after": 0.5,
                "delta": None, "low": None, "high": None, "p_value": None, "regression": False, "test": "paired"}
    page = render_compare_html(RUN, [untested], [], {}, {"d": "qa"})
    row = page[page.index("<td>d</td>"):page.index("</tr>", page.index("<td>d</td>"))]
    assert row.count('<td class="num" data-value="">–</td>') == 5  # A, change, interval, p, adjusted p


def test_console_links_fall_back_to_the_file_name_then_are_cut():
    flips = [{"dataset": "d", "model": "m", "id": "one two", "direction": "right → wrong"},
             {"dataset": "d", "model": "m", "id": "x" * 200, "direction": "wrong → right"}]
    lines = flip_links(flips, 5, "/" + "p" * 150 + "/compare.html", "compare.html")
    assert lines[0] == "  right → wrong: compare.html#d/m/one%20two"
    assert len(lines[1]) == 160 and lines[1].endswith("…") and lines[1].startswith("  wrong → right: compare.html#d/m/x")
    assert lines[2] == "  … and 3 more flipped item(s), listed in compare.html"
    assert flip_links(flips, 2, "c.html", "c.html", shown=1) == ["  right → wrong: c.html#d/m/one%20two",
                                                                 "  … and 1 more flipped item(s), listed in c.html"]
