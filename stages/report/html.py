"""report.html: one self-contained page per run — page/report.html.j2 (autoescaped Jinja2) with page/report.css,
page/report.js and inline SVG charts inlined; nothing fetched."""
from __future__ import annotations

import json
from functools import cache
from html import escape
from importlib.resources import files
from typing import Any

from markupsafe import Markup

from ..kinds import get_kind
from .aggregate import harness_described
from .charts import bar_chart, heatmap, line_chart
from .explorer import NOT_RIGHT_CAP, SAMPLE_CAP


@cache
def _templates() -> Any:
    """The page's Jinja2 templates (autoescape on), with the number cell the Python-built sections use too."""
    from jinja2 import Environment, PackageLoader, StrictUndefined

    environment = Environment(loader=PackageLoader("stages.report", "page"), autoescape=True,
                              undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    environment.globals["num"] = lambda value, percent=True, interval=None: Markup(_num(value, percent, interval))
    return environment


def _page_file(name: str) -> str:
    return (files("stages.report") / "page" / name).read_text(encoding="utf-8")


def _judge_macros() -> Any:
    return _templates().get_template("judge.html.j2").module


def _num(value: float | None, percent: bool = True, interval: dict[str, Any] | None = None) -> str:
    """A number cell; with an interval, its 95% bounds beside it and the method and n on hover."""
    if value is None:
        return '<td class="num" data-value="">–</td>'
    shown = f"{value * 100:.1f}%" if percent else f"{value:.3g}"
    if interval:
        title = escape(f"95% interval, {interval['method']}, n = {interval['n']}")
        bounds = f"[{100 * interval['low']:.1f}, {100 * interval['high']:.1f}]"
        return (f'<td class="num" data-value="{value!r}" title="{title}">{shown} '
                f'<span class="muted">{bounds}</span></td>')
    return f'<td class="num" data-value="{value!r}">{shown}</td>'


def _interval(interval: dict[str, Any] | None) -> str:
    """A 95% interval cell: [low, high] in percent, its n and method on hover."""
    if not interval:
        return '<td class="num" data-value="">–</td>'
    title = escape(f"{interval['method']}, n = {interval['n']}")
    return (f'<td class="num" data-value="{interval["low"]!r}" title="{title}">'
            f"[{100 * interval['low']:.1f}, {100 * interval['high']:.1f}] <span class=\"muted\">n={interval['n']}</span></td>")


STATUSES = ("correct", "partial", "wrong", "unparsed", "missing", "unscorable", "scored")


def _explorer(report: dict[str, Any]) -> str:
    """Items to read: filter by status or "A right, B wrong", search text, sort by score; every text is set as
    text by the page's script (the data travels as an escaped attribute, never as markup)."""
    data = report.get("explorer")
    if not data or not data["items"]:
        return ""
    statuses = "".join(f'<option value="status:{s}">{s}</option>' for s in STATUSES)
    judge_filter = '<option value="judge-differs">judge ≠ rater</option>' if data.get("raters") else ""
    aside = "".join(f"<li>{escape(str(r.get('where')))}: {escape(str(r.get('source')))} line "
                    f"{escape(str(r.get('line')))} — {escape(str(r.get('reason')))}</li>" for r in data["set_aside"])
    aside_note = (f"<p>{data['set_aside_total']} row(s) set aside"
                  f"{' (first ' + str(len(data['set_aside'])) + ')' if data['set_aside_total'] > len(data['set_aside']) else ''}:"
                  f"</p><ul>{aside}</ul>" if data["set_aside_total"] else "")
    return (f'<details class="explorer" data-items="{escape(json.dumps(data, ensure_ascii=False))}">'
            f"<summary>Items ({len(data['items'])} shown of {data['total']}: every item some model did not get right "
            f"up to {NOT_RIGHT_CAP}, and a uniform sample of up to {SAMPLE_CAP} of the rest)</summary><div class=\"controls\">"
            '<label>model <select class="model-a"></select></label>'
            '<label>beside <select class="model-b"><option value="">—</option></select></label>'
            '<label>show <select class="filter"><option value="all">all</option>'
            f'{statuses}<option value="a-right-b-wrong">A right, B wrong</option>'
            '<option value="a-wrong-b-right">A wrong, B right</option>'
            f'{judge_filter}</select></label>'
            '<label>sort <select class="order"><option value="question">question order</option>'
            '<option value="score-asc">score ↑</option><option value="score-desc">score ↓</option></select></label>'
            '<input class="search" type="search" placeholder="search text"></div><p class="count muted"></p>'
            f'<table class="items"><thead><tr></tr></thead><tbody></tbody></table>{aside_note}</details>')


def _differences(report: dict[str, Any]) -> str:
    """Model against model on the same items: the difference in the primary metric, its interval and p-value."""
    rows = [_text(f"{d['first']} − {d['second']}") + _text(d["metric"]) + _num(d["difference"])
            + _interval(d) + _num(d["p_value"], percent=False) + _text(d["method"])
            for d in report.get("differences", [])]
    if not rows:
        return ""
    return ("<h3>Model against model (paired, same items)</h3>"
            + _table(["models", "metric", "difference", "95% interval", "p", "test"], rows))


def _text(value: Any) -> str:
    return f"<td>{escape(str(value))}</td>"


def _table(headers: list[str], rows: list[str], row_classes: list[str] | None = None) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    classes = row_classes or [""] * len(rows)
    body = "".join(f'<tr class="{c}">{r}</tr>' if c else f"<tr>{r}</tr>" for r, c in zip(rows, classes))
    return f'<table class="sortable"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _coverage(report: dict[str, Any], model: str) -> float | None:
    rows = report["models"][model].get("rows")
    missing = report["set_aside"].get(model, {}).get("missing_predictions", 0)
    return (rows - missing) / rows if rows else None


def _headline_metrics(report: dict[str, Any]) -> list[str]:
    """The model-level scores in [0, 1] that any model of the dataset has (rates, accuracies, F1, similarities)."""
    names: list[str] = []
    for metrics in report["models"].values():
        for name, value in metrics.items():
            if isinstance(value, float) and 0 <= value <= 1 and name not in names:
                names.append(name)
    return names


def summary_section(reports: list[dict[str, Any]]) -> str:
    rows = []
    for report in reports:
        kind = get_kind(report["kind"])
        metric = report["comparison"]["primary_metric"]
        for model, metrics in report["models"].items():
            aside = report["set_aside"].get(model, {})
            interval = report.get("intervals", {}).get(model, {}).get(metric)
            rows.append(_text(report["dataset"]) + _text(report["kind"]) + _text(model) + _text(metric)
                        + _num(metrics.get(metric)) + _interval(interval)
                        + _num(kind.parse_rate(metrics)) + _num(_coverage(report, model))
                        + _num(metrics.get("rows"), percent=False)
                        + _num(sum(aside.get(k, 0) for k in ("question_rows_rejected", "prediction_rows_rejected")),
                               percent=False))
    table = _table(["dataset", "kind", "model", "metric", "score", "95% interval", "parse rate", "coverage", "rows",
                    "rows set aside"], rows)
    models = sorted({m for r in reports for m in r["models"]})
    datasets = [r["dataset"] for r in reports]
    scores = bar_chart("Primary metric per dataset", datasets, {
        m: [r["models"][m].get(r["comparison"]["primary_metric"]) if m in r["models"] else None for r in reports]
        for m in models}, y_max=1.0)
    parsed = [r for r in reports if any(get_kind(r["kind"]).parse_rate(x) is not None for x in r["models"].values())]
    rates = bar_chart("Extraction / parse rate", [r["dataset"] for r in parsed], {
        m: [get_kind(r["kind"]).parse_rate(r["models"][m]) if m in r["models"] else None for r in parsed]
        for m in models}, y_max=1.0) if parsed else ""
    coverage = bar_chart("Coverage (questions with a prediction)", datasets, {
        m: [_coverage(r, m) if m in r["models"] else None for r in reports] for m in models}, y_max=1.0)
    return (f"<h2>Summary</h2>{table}<div class=\"charts\">{scores}{rates}{coverage}</div>")


def dataset_section(report: dict[str, Any]) -> str:
    """One dataset: its headline metrics per model, confusion matrices and score distributions."""
    models = list(report["models"])
    headline = _headline_metrics(report)
    charts = [bar_chart(f"{report['dataset']}: metrics", headline,
                        {m: [report["models"][m].get(n) for n in headline] for m in models}, y_max=1.0)]
    for model, metrics in report["models"].items():
        if "confusion_matrix" in metrics:
            labels = [label for label in metrics["labels"]
                      if any(metrics["confusion_matrix"][p][label] for p in metrics["labels"])
                      or any(metrics["confusion_matrix"][label].values())]
            counts = [[metrics["confusion_matrix"][p][t] for t in labels] for p in labels]
            charts.append(heatmap(f"{model}: confusion matrix", labels, labels, counts, "predicted", "gold"))
    distributions = report.get("distributions", {})
    if distributions:
        any_model = next(iter(distributions.values()))
        edges = any_model["edges"]
        bins = [f"{lo:.1f}–{hi:.1f}" for lo, hi in zip(edges, edges[1:])]
        charts.append(bar_chart(f"{report['dataset']}: {any_model['metric']} per item (count)", bins,
                                {m: d["counts"] for m, d in distributions.items()}, percent=False))
    intervals = report.get("intervals", {})
    rows = [_text(m) + "".join(_num(report["models"][m].get(n), interval=intervals.get(m, {}).get(n))
                               for n in headline) for m in models]
    return (f"<h2 id=\"{escape(report['dataset'])}\">{escape(report['dataset'])} "
            f"<span class=\"muted\">({escape(report['kind'])})</span></h2>"
            f"{_table(['model', *headline], rows)}{_harness(report, headline)}{_judge(report)}{_differences(report)}"
            f"<div class=\"charts\">{''.join(charts)}</div>"
            f"{_explorer(report)}")


def _judge(report: dict[str, Any]) -> str:
    """Model-graded parts of a dataset: criteria per model, pairwise comparisons and agreement with raters."""
    macros = _judge_macros()
    return "".join(str(render(report[part])) for part, render in (
        ("judge", macros.judge_table), ("pairwise", macros.pairwise_table), ("leaderboard", macros.leaderboard_table),
        ("agreement", macros.agreement_table), ("preferences", macros.preferences_table),
        ("biases", macros.biases_table))
        if report.get(part))


def _harness(report: dict[str, Any], headline: list[str]) -> str:
    """For imported models: the harness's own numbers beside evalpipe's (its rules and scale may differ)."""
    rows = []
    for model, provenance in report.get("harness", {}).items():
        tool, reported = harness_described(provenance)
        ours = ", ".join(f"{name} {report['models'].get(model, {}).get(name, float('nan')):.4g}" for name in headline)
        rows.append(_text(model) + _text(tool) + _text(provenance.get("task")) + _text(reported)
                    + _text(ours))
    if not rows:
        return ""
    return ("<h3>Imported: the harness's numbers beside evalpipe's</h3>"
            + _table(["model", "harness", "task", "harness reported", "evalpipe (official rules)"], rows))


def _comparison_banner(comparisons: list[dict[str, Any]], noun: str, since: str) -> str:
    flagged = [c for c in comparisons if c["regression"]]
    if not flagged:
        return f'<div class="banner good">No {noun} since {escape(since)}.</div>'
    names = "; ".join(f"{c['dataset']} / {c['model']} / {c['metric']}" for c in flagged)
    return f'<div class="banner bad"><strong>{len(flagged)} {noun}(s) since {escape(since)}:</strong> {escape(names)}</div>'


def _comparison_table(comparisons: list[dict[str, Any]], flag: str) -> str:
    """Every comparison with raw and adjusted p; flagged rows highlighted."""
    rows = [_text(c["dataset"]) + _text(c["model"]) + _text(c["metric"]) + _text(c["test"])
            + _num(c["paired_items"], percent=False) + _num(c["before"]) + _num(c["after"]) + _num(c["delta"])
            + _num(c["p_value"], percent=False) + _num(c.get("p_adjusted"), percent=False) + _text(c.get("method", ""))
            + _text(flag if c["regression"] else "not comparable" if c.get("comparable") is False else "")
            + _text(c["reason"])
            for c in comparisons]
    return _table(["dataset", "model", "metric", "test", "paired items", "before", "after", "change", "p",
                   "adjusted p", "method", "verdict", "why"], rows,
                  ["regression" if c["regression"] else "" for c in comparisons])


def nightly_section(comparisons: list[dict[str, Any]], previous: str | None,
                    trends: dict[str, dict[str, dict[str, float | None]]], nights: list[str],
                    baseline: str | None = None, baseline_comparisons: list[dict[str, Any]] | None = None,
                    correction: str = "bh") -> str:
    """Regressions against the previous night and drift against a pinned baseline night (raw and adjusted p), every
    comparison, and each dataset's primary metric over time."""
    if previous is None:
        banner = '<div class="banner good">First night in the history: nothing to compare with yet.</div>'
    else:
        banner = _comparison_banner(comparisons, "regression", previous)
    if baseline:
        banner += _comparison_banner(baseline_comparisons or [], "drift", f"baseline {baseline}")
    rule = {"bh": "Benjamini–Hochberg", "holm": "Holm", "none": "no"}[correction]
    note = (f'<p class="muted">All of a night\'s tests are corrected together ({rule} correction): a drop is flagged '
            "when it exceeds min_drop and its adjusted p is below alpha.</p>")
    charts = [line_chart(f"{dataset}: primary metric by night", nights,
                         {model: [by_night.get(n) for n in nights] for model, by_night in models.items()})
              for dataset, models in sorted(trends.items())]
    return (f"<h2>Nightly</h2>{banner}{note}<h3>Trends</h3><div class=\"charts\">{''.join(charts)}</div>"
            + (f"<h3>Compared with {escape(previous)}</h3>{_comparison_table(comparisons, 'REGRESSION')}"
               if previous else "")
            + (f"<h3>Compared with baseline {escape(baseline)}</h3>"
               f"{_comparison_table(baseline_comparisons or [], 'DRIFT')}" if baseline else ""))


def trouble_banner(reports: list[dict[str, Any]], failed: dict[str, str]) -> str:
    """What a reader must see first: each dataset whose stages failed (not in this report) and each dataset with a
    problem that makes it unfit to publish, with the reason."""
    lines = [f"<li><strong>{escape(dataset)}</strong> failed: {escape(why)}</li>" for dataset, why in sorted(failed.items())]
    lines += [f"<li><strong>{escape(report['dataset'])}</strong>: {escape(problem)}</li>"
              for report in reports for problem in report.get("problems", [])]
    if not lines:
        return ""
    return f'<div class="banner bad"><strong>Not fit to publish:</strong><ul>{"".join(lines)}</ul></div>'


def render_html_report(reports: list[dict[str, Any]], run: dict[str, Any],
                       nightly: dict[str, Any] | None = None, failed: dict[str, str] | None = None) -> str:
    """The whole page. `run` describes the run (title, created_at, code_version); `nightly` adds comparisons,
    previous (night) and trends / nights for the trend charts; `failed` names datasets whose stages failed."""
    nightly_html = "" if nightly is None else nightly_section(
        nightly["comparisons"], nightly["previous"], nightly["trends"], nightly["nights"], nightly.get("baseline"),
        nightly.get("baseline_comparisons"), nightly.get("correction", "bh"))
    page = _templates().get_template("report.html.j2").render(
        title=run.get("title", "evalpipe report"), meta=[(k, v) for k, v in run.items() if k != "title"],
        style=_page_file("report.css"), script=_page_file("report.js"),
        trouble=Markup(trouble_banner(reports, failed or {})), nightly=Markup(nightly_html),
        summary=Markup(summary_section(reports)), datasets=[Markup(dataset_section(report)) for report in reports])
    return page + "\n"
