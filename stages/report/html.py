"""report.html: one page per run — page/report.html.j2 and the section templates beside it (autoescaped Jinja2)
rendered by one function from the values prepared here, with page/report.css, page/report_items.js, page/report.js
and inline SVG charts inlined; nothing fetched, a big run's explorer items past the budget beside it (item_files)."""
from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any

from markupsafe import Markup

from ..chat.outage import unpublished_models
from ..kinds import get_kind
from .aggregate import harness_described, reply_notes
from .charts import grouped_bar_chart, heatmap, line_chart
from .disagreements import disagreement_rows
from .explorer import NOT_RIGHT_CAP, SAMPLE_CAP
from .harness_figures import harness_figure_rows
from .headline import leaderboard_caption, leaderboard_headline
from .highlight_assets import highlight_assets
from .item_files import ITEM_BUDGET, ReportPage, item_data
from .katex_assets import katex_assets
from .renderers import renderer_for
from .sampling import sampling_curves, sampling_rows


@cache
def page_templates() -> Any:
    """The page's Jinja2 templates (autoescape on), compiled once per user: Jinja2's bytecode cache (in the temporary
    folder, keyed by each template's source) saves about 0.6 s of every run's report."""
    from jinja2 import Environment, PackageLoader, StrictUndefined

    environment = Environment(loader=PackageLoader("stages.report", "page"), autoescape=True,
                              undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                              bytecode_cache=_bytecode_cache())
    environment.globals["leaderboard_caption"] = leaderboard_caption
    environment.filters["whole"] = whole_count
    return environment


def whole_count(value: Any) -> Any:
    """A count as the page shows it, with separators (4,440); anything else as it is."""
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else value


def _bytecode_cache() -> Any:
    """Jinja2's FileSystemBytecodeCache, where a cache folder that cannot be made or written only costs the compile
    it would have saved (None: no cache)."""
    from jinja2 import FileSystemBytecodeCache

    class Cache(FileSystemBytecodeCache):
        def dump_bytecode(self, bucket: Any) -> None:
            try:
                super().dump_bytecode(bucket)
            except OSError:
                pass

    try:
        return Cache()
    except (OSError, RuntimeError):  # Jinja2 refuses a temporary folder another user owns
        return None


def page_file(name: str) -> str:
    return (files("stages.report") / "page" / name).read_text(encoding="utf-8")


STATUSES = ("correct", "partial", "wrong", "unparsed", "missing", "unscorable", "not compared", "scored",
            "sometimes right", "never right")  # the last two: an item's status over several replies
CORRECTIONS = {"bh": "Benjamini–Hochberg", "holm": "Holm", "none": "no"}


def _coverage(report: dict[str, Any], model: str) -> float | None:
    rows = report["models"][model].get("rows")
    missing = report["set_aside"].get(model, {}).get("missing_predictions", 0)
    return (rows - missing) / rows if rows else None


def _headline_metrics(report: dict[str, Any]) -> list[str]:
    """The model-level scores in [0, 1] that any model of the dataset has (rates, accuracies, F1, similarities), not
    their standard errors (lm-eval's acc_stderr: each figure's interval is shown with it)."""
    names: list[str] = []
    for metrics in report["models"].values():
        for name, value in metrics.items():
            if isinstance(value, float) and 0 <= value <= 1 and name not in names and not name.endswith("_stderr"):
                names.append(name)
    return names


def _charted_metrics(report: dict[str, Any], headline: list[str]) -> list[str]:
    """The figures a dataset's chart draws: its kind's published ones (qa: EM and F1; acc and acc_norm), else its
    primary metric, never the pipeline's own rates; none where a leaderboard's table holds the published figures, nor
    for an open-ended kind (its primary metric is only how many items were answered; a judge's tables hold its
    figures) nor where the kind's own tables hold them (BFCL's summary columns, not its micro accuracy; tau2's pass^k)."""
    if (report.get("leaderboards") or get_kind(report["kind"]).open_ended
            or renderer_for(report["kind"]).figure_tables(report)):
        return []
    published = get_kind(report["kind"]).headline_metrics or (report["comparison"]["primary_metric"],)
    return [name for name in published if name in headline]


def _summary_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    """A dataset's summary rows: per model its headline metrics (qa: exact match and F1; the primary one marked for
    the charts), or the leaderboard's or judge's headline figure, each with its 95% interval; a model not published
    (too many items not scored) says so, with no figure."""
    kind = get_kind(report["kind"])
    primary = report["comparison"]["primary_metric"]
    board = leaderboard_headline(report)
    unpublished = unpublished_models(report)
    rows = []
    for model, metrics in report["models"].items():
        if model in unpublished:
            rows.append({"dataset": report["dataset"], "kind": report["kind"], "model": f"{model} (not published)",
                         "metric": board.name if board is not None else primary, "primary": True, "as_rate": True,
                         "score": None, "interval": None, "parse_rate": None, "coverage": None,
                         "rows": metrics.get("rows"), "set_aside": None})
            continue
        aside = report["set_aside"].get(model, {})
        common = {"dataset": report["dataset"], "kind": report["kind"], "model": model,
                  "parse_rate": kind.parse_rate(metrics), "coverage": _coverage(report, model),
                  "rows": metrics.get("rows"),
                  "set_aside": sum(aside.get(k, 0) for k in ("question_rows_rejected", "prediction_rows_rejected"))}
        if board is not None:
            scale = 100 if board.unit == "percent" else 1
            figure, interval = board.values.get(model), board.intervals.get(model)
            if interval and scale != 1:
                interval = {**interval, "low": interval["low"] / scale, "high": interval["high"] / scale}
            rows.append({**common, "metric": board.name, "primary": True, "as_rate": board.unit != "score",
                         "score": None if figure is None else figure / scale, "interval": interval})
            continue
        for metric in kind.headline_metrics or (primary,):
            rows.append({**common, "metric": metric, "primary": metric == primary, "as_rate": True,
                         "score": metrics.get(metric),
                         "interval": report.get("intervals", {}).get(model, {}).get(metric)})
    return rows


def _rating_top(values: list[float]) -> float:
    """A rating axis's top: the scale it fits (5 or 10), else a little above its largest value."""
    peak = max([*values, 0.0])
    return next((top for top in (5.0, 10.0) if peak <= top), peak * 1.1)


def summary_values(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """What the summary shows: rows per dataset × model, and its charts — rates on a percent axis, ratings (a 1–10
    judge score, say) on their own; sideways and scrolled when the datasets outgrow upright bars."""
    rows = [row for report in reports for row in _summary_rows(report)]
    models = sorted({m for r in reports for m in r["models"]})
    charts = []
    for rate, title in ((True, "Primary metric per dataset"), (False, "Ratings per dataset (their own scale)")):
        picked = {(row["dataset"], row["model"]): row["score"] for row in rows
                  if row["primary"] and row["as_rate"] == rate}
        datasets = list(dict.fromkeys(dataset for dataset, _ in picked))
        if not datasets:
            continue
        values = [v for v in picked.values() if v is not None]
        charts.append(grouped_bar_chart(title, datasets, {
            m: [picked.get((dataset, m)) for dataset in datasets] for m in models},
            percent=rate, y_max=1.0 if rate else _rating_top(values)))
    parsed = [r for r in reports if any(get_kind(r["kind"]).parse_rate(x) is not None for x in r["models"].values())]
    if parsed:
        charts.append(grouped_bar_chart("Extraction / parse rate", [r["dataset"] for r in parsed], {
            m: [get_kind(r["kind"]).parse_rate(r["models"][m]) if m in r["models"] else None for r in parsed]
            for m in models}, y_max=1.0))
    charts.append(grouped_bar_chart("Coverage (questions with a prediction)", [r["dataset"] for r in reports], {
        m: [_coverage(r, m) if m in r["models"] else None for r in reports] for m in models}, y_max=1.0))
    return {"rows": rows, "charts": [Markup(chart) for chart in charts]}


def dataset_values(report: dict[str, Any], embedded: dict[str, Any] | None = None) -> dict[str, Any]:
    """What one dataset's section shows besides its report: headline metrics, charts (metrics, confusion matrices,
    score distributions), imported harnesses' numbers and the explorer's data as an attribute value (`embedded`:
    item_data's, its items within the page's budget; default: every item)."""
    models = list(report["models"])
    headline = _headline_metrics(report)
    charted = _charted_metrics(report, headline)
    charts = [grouped_bar_chart(f"{report['dataset']}: metrics", charted,
                                {m: [report["models"][m].get(n) for n in charted] for m in models}, y_max=1.0)
              ] if charted else []
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
        charts.append(grouped_bar_chart(f"{report['dataset']}: {any_model['metric']} per item (count)", bins,
                                {m: d["counts"] for m, d in distributions.items()}, percent=False))
    for name, (ks, series) in sampling_curves(report).items():
        charts.append(line_chart(f"{report['dataset']}: {name} by k", ks, series))
    harness = []
    for model, provenance in report.get("harness", {}).items():
        tool, _ = harness_described(provenance)
        harness.append({"model": model, "tool": tool, "task": provenance.get("task") or "–",
                        "figures": harness_figure_rows(provenance, report["models"].get(model, {}), headline),
                        "disagreements": disagreement_rows(provenance.get("disagreements", {}))})
    explorer = embedded if embedded is not None else item_data([report.get("explorer")], None)[0][0]
    return {"report": report, "headline": headline, "notes": reply_notes(report), "breakdowns": breakdowns(report), "charts": [Markup(chart) for chart in charts], "harness": harness,
            "samples": sampling_rows(report), "figure_tables": renderer_for(report["kind"]).figure_tables(report),
            "items_json": json.dumps({**explorer, "view": renderer_for(report["kind"]).view}, ensure_ascii=False,
                                     separators=(",", ":"))
            if explorer else "", "statuses": STATUSES,
            "caps": (NOT_RIGHT_CAP, SAMPLE_CAP)}


def breakdowns(report: dict[str, Any]) -> list[dict[str, Any]]:
    """The per-group figures some kinds give (math: by_subject, by_level as {label: {rows, accuracy}}): one table each,
    a row per label and a column per model."""
    found: dict[str, list[str]] = {}
    for metrics in report["models"].values():
        for name, groups in metrics.items():
            if name.startswith("by_") and isinstance(groups, dict) and all(
                    isinstance(group, dict) and "accuracy" in group for group in groups.values()):
                found.setdefault(name, [])
                found[name] += [label for label in groups if label not in found[name]]
    return [{"name": name[3:], "models": list(report["models"]), "rows": [
        (label, [report["models"][m].get(name, {}).get(label) for m in report["models"]]) for label in labels]}
        for name, labels in found.items()]


def trend_chart(dataset: str, nights: list[str], models: dict[str, dict[str, float | None]], unit: str | None) -> str:
    """A dataset's primary metric by night: a rate (or a leaderboard's percent) on a percent axis, a rating on its
    own; `unit` None (a dataset only the history has) reads values within [0, 1] as rates."""
    values = [v for by_night in models.values() for v in by_night.values() if v is not None]
    if unit is None:
        unit = "rate" if all(0 <= v <= 1 for v in values) else "score"
    scale = 100 if unit == "percent" else 1
    return line_chart(f"{dataset}: primary metric by night", nights,
                      {model: [None if by_night.get(n) is None else by_night[n] / scale for n in nights]
                       for model, by_night in models.items()}, percent=unit != "score")


def nightly_values(nightly: dict[str, Any], reports: list[dict[str, Any]] = ()) -> dict[str, Any]:
    """What the Nightly section shows: comparisons with the previous night and the baseline, and the trend charts
    (each dataset's on the axis its unit needs, read from this run's `reports`)."""
    nights = nightly["nights"]
    units = {report["dataset"]: next((section.get("unit", "percent")  # history's primary: a leaderboard's headline,
                                      for section in report.get("leaderboards", {}).values()), "rate")  # else a rate
             for report in reports}
    charts = [trend_chart(dataset, nights, models, units.get(dataset))
              for dataset, models in sorted(nightly["trends"].items())]
    return {"comparisons": nightly["comparisons"], "previous": nightly["previous"],
            "baseline": nightly.get("baseline"), "baseline_comparisons": nightly.get("baseline_comparisons") or [],
            "rule": CORRECTIONS[nightly.get("correction", "bh")], "charts": [Markup(chart) for chart in charts]}


def trouble_values(reports: list[dict[str, Any]], failed: dict[str, str]) -> list[tuple[str, str, bool]]:
    """What a reader must see first: (dataset, why, whether its stages failed) for each dataset whose stages failed
    (not in this report) and each problem that makes a dataset unfit to publish."""
    return [*((dataset, why, True) for dataset, why in sorted(failed.items())),
            *((report["dataset"], problem, False) for report in reports for problem in report.get("problems", []))]


def earlier_trouble(trouble: list[tuple[str, str, bool]],
                    ran: list[str] | None) -> tuple[list[tuple[str, str, bool]], list[str]]:
    """The trouble of the datasets this invocation ran (all of them when `ran` is None), and the names of the others
    with trouble of their own: said in one grey line, since the user did not ask for them this time."""
    if ran is None:
        return trouble, []
    earlier = sorted({dataset for dataset, _, _ in trouble if dataset not in ran})
    return [entry for entry in trouble if entry[0] in ran], earlier


def render_html_report(reports: list[dict[str, Any]], run: dict[str, Any],
                       nightly: dict[str, Any] | None = None, failed: dict[str, str] | None = None,
                       ran: list[str] | None = None) -> str:
    """The whole page with every explorer item embedded, as render_html_page describes."""
    return render_html_page(reports, run, nightly, failed, ran, item_budget=None).html


def render_html_page(reports: list[dict[str, Any]], run: dict[str, Any],
                     nightly: dict[str, Any] | None = None, failed: dict[str, str] | None = None,
                     ran: list[str] | None = None, item_budget: int | None = ITEM_BUDGET) -> ReportPage:
    """The whole page and its item files (write_report_page writes both). `run` describes the run (title,
    created_at, code_version); `nightly` adds comparisons, previous (night) and trends / nights for the trend charts;
    `failed` names datasets whose stages failed; `ran` names the datasets this invocation ran (None: all), the
    others' trouble is one grey line; explorer items past `item_budget` bytes go beside the page (None: none do)."""
    trouble, earlier = earlier_trouble(trouble_values(reports, failed or {}), ran)
    embedded, item_files = item_data([report.get("explorer") for report in reports], item_budget)
    page = page_templates().get_template("report.html.j2").render(
        title=run.get("title", "evalpipe report"), meta=[(k, v) for k, v in run.items() if k != "title"],
        style=page_file("report.css"),
        script=page_file("views.js") + page_file("report_items.js") + page_file("report.js"),
        trouble=trouble, earlier=earlier, nightly=None if nightly is None else nightly_values(nightly, reports),
        summary=summary_values(reports),
        datasets=[dataset_values(report, shown) for report, shown in zip(reports, embedded)],
        katex=katex_assets() if any(report.get("explorer") and renderer_for(report["kind"]).needs_katex
                                    for report in reports) else None,
        highlight=highlight_assets() if any(report.get("explorer") and renderer_for(report["kind"]).needs_highlight
                                            for report in reports) else None)
    return ReportPage(page + "\n", item_files)
