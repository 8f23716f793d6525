"""B6: models side by side per dataset, and one summary across datasets."""
from __future__ import annotations

from typing import Any

from ..chat.costs import cost_line, tokens_text
from ..chat.generation import failure_line
from ..core.records import Columns
from ..core.text_table import CONSOLE_COLUMNS, display_width, format_table
from ..kinds import Kind, get_kind, report_kind
from .disagreements import disagreement_rows
from .headline import leaderboard_baseline, leaderboard_caption, leaderboard_headline
from .sampling import sampling_line

DISTRIBUTION_BINS = 10
SHARED_LINE = 2  # headline metrics shown on one line of the console's table (qa: exact_match / f1)


def build_dataset_report(
    dataset: str, kind: str | Kind, metrics_by_model: dict[str, dict], set_aside_by_model: dict[str, dict],
    params: dict[str, Any] | None = None, scored_by_model: dict[str, Columns] | None = None,
    problems: list[str] | None = None,
) -> dict[str, Any]:
    """One dataset's report: each model's metrics, the kind's comparison, what was set aside per model, why the
    numbers are unfit to publish (problems) and, given the B5 rows, each model's distribution of per-item scores.
    `kind`: its name, or the kind as the dataset runs it (Kind.for_params: a bound task is named as `task`)."""
    kind = get_kind(kind) if isinstance(kind, str) else kind
    comparison = kind.compare(metrics_by_model, params or {})
    distributions = {model: score_distribution(kind.name, comparison["primary_metric"], scored)
                     for model, scored in (scored_by_model or {}).items()}
    return {
        "dataset": dataset,
        "kind": kind.name,
        **({"task": kind.bound_task} if kind.bound_task else {}),
        "models": metrics_by_model,
        "comparison": comparison,
        "set_aside": set_aside_by_model,
        "problems": problems or [],
        "distributions": {model: d for model, d in distributions.items() if d is not None},
    }


def reply_notes(report: dict[str, Any]) -> list[str]:
    """What a reader must know about the replies behind each model's numbers: why generation failed, replies that
    end inside their reasoning (scored as no answer), those cut at max_tokens, answers left uncompared (past the time
    limit)."""
    notes = [f"{model}: {line}" for model, generation in report.get("generation", {}).items()
             if (line := failure_line(generation)) is not None]
    notes += [f"{model}: {found['line']}" + ("; not published" if not found["published"] else
                                             " (out of its denominator, never counted wrong)")
              for model, found in report.get("unscored", {}).items()]
    for model, replies in report.get("replies", {}).items():
        if replies["unfinished_reasoning"]:
            notes.append(f"{model}: {replies['unfinished_reasoning']:,} of {replies['replies']:,} replies end inside "
                         "their reasoning (scored as no answer)")
        if replies["cut_at_max_tokens"]:
            notes.append(f"{model}: {replies['cut_at_max_tokens']:,} of {replies['replies']:,} replies were cut at "
                         "max_tokens")
    for model, metrics in report["models"].items():
        if metrics.get("not_compared"):
            notes.append(f"{model}: {metrics['not_compared']:,} answer(s) not compared (past the time limit; left "
                         "out of accuracy, listed in B4 as 'not compared')")
        if metrics.get("outcomes", {}).get("other language"):
            notes.append(f"{model}: {metrics['outcomes']['other language']:,} reply(ies) with code in another language "
                         "than the dataset's (not run; each row says which)")
        if metrics.get("unsandboxed"):
            notes.append(f"{model}: {metrics['unsandboxed']:,} program(s) ran WITHOUT a sandbox (sandbox = \"none\" "
                         "in dataset.toml): unconfined on this host but for resource limits")
    return notes


def distribution_metric(kind_name: str, primary: str) -> str | None:
    """The per-item metric whose spread a histogram shows: the primary one if it is graded, else a graded one; None
    when every metric is 0/1 (an interval says more than a two-bar histogram)."""
    tests = get_kind(kind_name).paired_metrics
    if tests.get(primary) == "mean":
        return primary
    return next((metric for metric, test in tests.items() if test == "mean"), None)


def score_distribution(kind_name: str, primary: str, scored: Columns) -> dict[str, Any] | None:
    """A histogram over [0, 1] of one model's per-item graded scores (null items left out), or None if there are
    none."""
    return item_distribution(kind_name, primary, get_kind(kind_name).item_scores(scored))


def item_distribution(kind_name: str, primary: str, items: dict[str, list[float | None]]) -> dict[str, Any] | None:
    """score_distribution from per-item values already taken out of the rows (metric → values)."""
    import numpy as np

    metric = distribution_metric(kind_name, primary)
    if metric is None or metric not in items:
        return None
    values = np.array([v for v in items[metric] if v is not None], dtype=np.float64)
    counts, edges = np.histogram(np.clip(values, 0.0, 1.0), bins=DISTRIBUTION_BINS, range=(0.0, 1.0))
    return {"metric": metric, "edges": [round(float(e), 6) for e in edges], "counts": [int(c) for c in counts]}


def build_summary(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """One row per dataset × model with the kind's primary metric, its headline metrics and set-aside counts; a
    model with items not scored says how many and why (`not_scored`), and one not published has no value
    (`published`: false)."""
    rows = []
    for report in reports:
        metric = report["comparison"]["primary_metric"]
        headline = report_kind(report).headline(report["models"]) or (metric,)
        board = leaderboard_headline(report)
        for model, metrics in report["models"].items():
            aside = report["set_aside"].get(model, {})
            figure = None if board is None else board.values.get(model)
            unscored = report.get("unscored", {}).get(model)
            shown = unscored is None or unscored["published"]
            rows.append(
                {
                    "dataset": report["dataset"],
                    "kind": report["kind"],
                    "model": model,
                    "metric": metric if board is None else board.name,
                    "value": None if not shown else metrics.get(metric) if board is None else figure,
                    "headline": ({name: metrics.get(name) if shown else None for name in headline} if board is None
                                 else {board.name: figure if shown else None}),
                    "rows": metrics.get("rows"),
                    "baseline": board is not None and model == leaderboard_baseline(report),
                    **aside,
                    **({} if unscored is None else {"not_scored": unscored["line"], "published": shown}),
                }
            )
    return {"datasets": [r["dataset"] for r in reports], "rows": rows}


def set_aside_lines(report: dict[str, Any], outputs: str = "outputs") -> list[str]:
    """Per dataset, how many rows were set aside and the command that lists them in the run's `outputs` (named when
    not the default; as OUTPUTS where the path would push the line past the console's 160 columns): the questions
    once, each model's predictions."""
    dataset, lines = report["dataset"], []
    asides = report.get("set_aside", {})
    questions = max((aside.get("question_rows_rejected", 0) for aside in asides.values()), default=0)
    if questions:
        lines.append(_with_outputs(f"{dataset}: {questions:,} question row(s) set aside: evalpipe show B1 --dataset "
                                   f"{dataset} --rejects", outputs))
    for model, aside in asides.items():
        if aside.get("prediction_rows_rejected"):
            lines.append(_with_outputs(f"{dataset} / {model}: {aside['prediction_rows_rejected']:,} prediction row(s) "
                                       f"set aside: evalpipe show B2 --dataset {dataset} --model {model} --rejects",
                                       outputs))
    return lines


def _with_outputs(line: str, outputs: str) -> str:
    if outputs == "outputs":
        return line
    named = f"{line} --outputs {outputs}"
    return named if display_width("evalpipe: " + named) <= CONSOLE_COLUMNS else f"{line} --outputs OUTPUTS"


def leaderboard_tables(report: dict[str, Any]) -> str:
    """Each leaderboard's figures per model under the names its tool prints, best first, with what they rest on."""
    parts = []
    for section in report.get("leaderboards", {}).values():
        rows = []
        for model, found in section["models"].items():
            rows.append([model, *(_figure(found.get(column)) for column in section["columns"]), str(found["not_judged"])])
            published = section.get("published", {}).get(model)
            if published:
                rows.append(["  (published)", *(_figure(published.get(column)) for column in section["columns"]), ""])
        notes = "".join(f"\nnote: {note}" for note in section["notes"])
        caption = leaderboard_caption(section)
        parts.append(f"{section['title']}{f' ({caption})' if caption else ''}:\n"
                     + format_table(["model", *section["columns"], "not judged"], rows) + notes + "\n")
    return "".join(parts)


def _figure(value: Any) -> str:
    if value is None:
        return "n/a"
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def render_report(report: dict[str, Any]) -> str:
    """The dataset report as console text, in the kind's own layout, after any problems and a leaderboard's figures."""
    rendered = leaderboard_tables(report) + report_kind(report).render(report["dataset"], report)
    generation = "".join(f"\n{_generation_line(model, g)}" for model, g in report.get("generation", {}).items())
    harness = "".join(f"\n{harness_line(model, p)}" for model, p in report.get("harness", {}).items())
    sampled = "".join(f"\n{sampling_line(model, found, report['comparison']['primary_metric'])}"
                      for model, found in report.get("samples", {}).items())
    judged = report.get("judge", {"models": {}})
    judge = "".join(f"\n{judge_line(', '.join(judged['judges']), model, name, s)}"
                    for model, criteria in judged["models"].items() for name, s in criteria.items())
    pairwise = "".join(f"\n{pairwise_line(', '.join(report['pairwise']['judges']), pair)}"
                       for pair in report.get("pairwise", {}).get("pairs", []))
    agreement = "".join(f"\n{agreement_line(name, found)}"
                        for name, found in report.get("agreement", {}).get("criteria", {}).items())
    board = f"\n{bradley_terry_line(report['bradley_terry'])}" if report.get("bradley_terry") else ""
    board += f"\n{cost_line('judge', report['judge_cost']['total'])}" if report.get("judge_cost") else ""
    preferred = "".join(f"\n{preference_line(name, found)}"
                        for name, found in report.get("preferences", {}).get("against", {}).items())
    preferred += "".join(f"\nlabels row set aside: {set_aside_place(row)}: {row['reason']}" for row in labels_set_aside(report))
    biases = report.get("biases") or {"judges": {}}
    preferred += "".join(f"\n{bias_line(judge, found, biases.get('people'))}" for judge, found in biases["judges"].items())
    return ("".join(f"PROBLEM: {problem}\n" for problem in report.get("problems", [])) + rendered + generation
            + harness + sampled + judge + pairwise + board + agreement + preferred)


def labels_set_aside(report: dict[str, Any]) -> list[dict[str, Any]]:
    """The raters' labels rows (per-criterion labels and preferences) set aside reading them."""
    return [*report.get("agreement", {}).get("set_aside", []), *report.get("preferences", {}).get("set_aside", [])]


def set_aside_place(row: dict[str, Any]) -> str:
    """Where a row set aside was: its file and line (its file alone when lines do not apply)."""
    return f"{row.get('source')}:{row['line']}" if row.get("line") is not None else str(row.get("source"))


def bias_line(judge: str, found: dict[str, Any], people: dict[str, Any] | None) -> str:
    """A pairwise judge's position and length biases, with people's length preference beside its own."""
    def share(value: float | None) -> str:
        return "n/a" if value is None else f"{value:.1%}"

    length = found["length"]
    theirs = "" if people is None else f"; people: {share(people['longer_preferred'])} of {people['n']}"
    return (f"biases of judge {judge}: position consistency {share(found['position_consistency'])} of "
            f"{found['order_pairs']} order pairs; of {found['flipped']} flips {share(found['followed_a'])} chose A "
            f"both times, {share(found['followed_b'])} B; preferred the longer answer in "
            f"{share(length['longer_preferred'])} of {length['n']} decisive pairs of different length{theirs}")


def preference_line(rater: str, found: dict[str, Any]) -> str:
    """The judge's pairwise outcomes against one rater's (or the majority's) preferences."""
    def share(value: float | None) -> str:
        return "n/a" if value is None else f"{value:.1%}"

    orders = found["orders"]
    kappa = "n/a" if found["kappa"] is None else f"{found['kappa']:.3f}"
    return (f"judge against {rater} (preferences): accuracy {share(found['accuracy'])} (n={found['n']}), κ {kappa}, "
            f"macro F1 {share(found['f1'])}; without ties {share(found['without_ties']['agreement'])} "
            f"(n={found['without_ties']['n']}); each order alone {share(orders['first_shown_first']['accuracy'])} / "
            f"{share(orders['second_shown_first']['accuracy'])}, mean {share(orders['mean_accuracy'])}")


def bradley_terry_line(board: dict[str, Any]) -> str:
    """The Bradley–Terry leaderboard in one line: rank, model, rating and its 95% interval, best first (and people's,
    with Kendall's τ between the two orders, when raters gave preferences)."""
    def ranked(rows: list[dict[str, Any]]) -> str:
        return "; ".join(f"{row['rank']}. {row['model']} {row['rating']:.0f} [{row['low']:.0f}, {row['high']:.0f}]"
                         for row in rows)

    anchor = f"{board['anchor']} at {board['base']:.0f}" if board["anchor"] != "mean" else f"mean {board['base']:.0f}"
    line = f"leaderboard (Bradley–Terry, Elo scale, {anchor}, {board['items']} items): {ranked(board['models'])}"
    if board.get("people"):
        tau = board["kendall_tau"]["tau"]
        line += (f"; people's: {ranked(board['people']['models'])}; Kendall's τ "
                 f"{'n/a' if tau is None else f'{tau:.2f}'}")
    return line


def judge_line(judges: str, model: str, criterion: str, summary: dict[str, Any]) -> str:
    """One criterion's judged score for one model: mean over parsed verdicts, its interval, n and parse rate."""
    interval = summary["interval"]
    mean = "n/a" if summary["mean"] is None else f"{summary['mean']:.4f}"
    around = f" [{interval['low']:.3f}, {interval['high']:.3f}]" if interval else ""
    parsed = "n/a" if summary["parse_rate"] is None else f"{summary['parse_rate']:.1%}"
    agreement = (f", self-agreement {summary['self_agreement']:.1%}" if summary.get("self_agreement") is not None
                 else "")
    task = f"\n  {summary['figures_line']}" if summary.get("figures_line") else ""  # a judged task's own figures
    return (f"judge {judges} on {model}: {criterion} {mean}{around} n={summary['n']} of {summary['items']}, "
            f"parsed {parsed} ({summary['unparsed']} unparsed, {summary['failed_calls']} failed calls"
            f"{_not_judged(summary)}){agreement}{task}")


def _not_judged(summary: dict[str, Any]) -> str:
    return f", {summary['not_judged']} not judged" if summary.get("not_judged") else ""


def pairwise_line(judges: str, pair: dict[str, Any]) -> str:
    """One pair of models judged side by side: the first's win / tie / loss rates and the judge's position
    consistency."""
    def rate(value: float | None, interval: dict[str, Any] | None) -> str:
        return "n/a" if value is None else f"{value:.1%} [{interval['low']:.1%}, {interval['high']:.1%}]"

    wins, ties, losses, half = (rate(pair[f"{name}_rate"], pair[f"{name}_interval"])
                                for name in ("win", "tie", "loss", "win_ties_half"))

    consistency = "n/a" if pair["position_consistency"] is None else f"{pair['position_consistency']:.1%}"
    return (f"judge {judges}, {pair['first']} against {pair['second']}: wins {wins}, ties {ties}, losses {losses}, "
            f"win rate (ties half) {half} over {pair['n']} of {pair['items']} items; position consistency {consistency} "
            f"({pair['unparsed']} unparsed, {pair['failed_calls']} failed calls)")


def agreement_line(criterion: str, found: dict[str, Any]) -> str:
    """The judge against each rater on one criterion, all models together: n, raw agreement, κ with its interval,
    and α among the raters."""
    parts = []
    for rater, against in found["overall"]["against"].items():
        kappa, interval = against["kappa"], against["kappa_interval"]
        shown = "n/a" if kappa is None else f"{kappa:.3f}" + (
            f" [{interval['low']:.3f}, {interval['high']:.3f}]" if interval else "")
        agreement = "n/a" if against["agreement"] is None else f"{against['agreement']:.1%}"
        parts.append(f"{rater} n={against['n']} agreement {agreement} κ {shown}")
    alpha = found["overall"]["alpha"]
    among = "" if not alpha or alpha["alpha"] is None else f"; α among raters {alpha['alpha']:.3f}"
    return f"judge against raters on {criterion}: " + "; ".join(parts) + among + correlation_text(found)


def correlation_text(found: dict[str, Any]) -> str:
    """An ordinal criterion's Spearman / Kendall / Pearson against the raters' mean, per item and per model."""
    if not found.get("correlations"):
        return ""

    def three(values: dict[str, Any]) -> str:
        shown = ("n/a" if values[name] is None else f"{values[name]:.3f}" for name in ("spearman", "kendall", "pearson"))
        return f"{' / '.join(shown)} (n={values['n']})"

    found = found["correlations"]
    return (f"; against the raters' mean, Spearman / Kendall τ-b / Pearson: items {three(found['items'])}, "
            f"systems {three(found['systems'])}")


def harness_described(provenance: dict[str, Any]) -> tuple[str, str]:
    """An imported model's harness ("lm-eval 0.4.13") and what it reported ("exact_match 0.6452", "mae inf"), on its
    own rules and scale."""
    tool = " ".join(str(provenance[key]) for key in ("tool", "version") if provenance.get(key))
    metrics = ", ".join(f"{name} {value:.4g}" if isinstance(value, (int, float)) else f"{name} {value}"
                        for name, value in provenance.get("metrics", {}).items()) or "none"
    return tool, metrics


def harness_line(model: str, provenance: dict[str, Any]) -> str:
    """What the harness reported for an imported model and, per metric it scored each row by, where its rule and
    evalpipe's disagree."""
    tool, metrics = harness_described(provenance)
    task = f" task {provenance['task']}" if provenance.get("task") else ""
    lines = [f"{model}: imported from {tool}{task}; it reported {metrics}"]
    lines += [f"  {row['metric']}: the rules disagree on {row['disagree']} of {row['rows']} rows; right by the harness "
              f"only {row['harness_only']}; right by evalpipe only {row['evalpipe_only']}"
              for row in disagreement_rows(provenance.get("disagreements", {}))]
    lines += [f"  harness verdicts set aside: {line}" for line in provenance.get("verdicts_set_aside", [])]
    return "\n".join(lines)


def _generation_line(model: str, generation: dict[str, Any]) -> str:
    failures = ", ".join(f"{reason} {n}" for reason, n in generation["failures"].items()) or "none"
    latency = ("n/a" if generation["latency_p50"] is None else
               f"p50 {generation['latency_p50']:.3f} s, p95 {generation['latency_p95']:.3f} s")
    return (f"generated by {model}: {generation['answers']} answers; failures: {failures}; latency {latency}; "
            + tokens_text(generation["tokens_in"], generation["tokens_out"]))


def render_summary(summary: dict[str, Any]) -> str:
    """The run in a few lines: each dataset × model's headline metrics (qa: exact_match / f1, else the primary one)
    and what was set aside; more than two headline metrics (ifeval's four) take a line each, so the table stays
    narrow."""
    rows = []
    for row in summary["rows"]:
        headline = row.get("headline") or {row["metric"]: row["value"]}
        names = list(headline)
        values = ["not published" if row.get("published") is False else "n/a" if value is None else f"{value:.4f}"
                  for value in headline.values()]
        aside = (f"{row.get('question_rows_rejected', 0)} / {row.get('prediction_rows_rejected', 0)} / "
                 f"{row.get('missing_predictions', 0)}")
        step = len(names) if len(names) <= SHARED_LINE else 1
        for start in range(0, len(names), step):
            shown = "(baseline)" if row.get("baseline") else " / ".join(values[start:start + step])
            first = [row["dataset"], row["model"]] if start == 0 else ["", ""]
            last = [str(row["rows"]), aside] if start == 0 else ["", ""]
            rows.append([*first, " / ".join(names[start:start + step]), shown, *last])
    return format_table(["dataset", "model", "metric", "value", "rows", "set aside: questions / predictions / "
                         "missing"], rows)
