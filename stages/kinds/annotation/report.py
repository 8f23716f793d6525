"""Annotation reports: console text and the Markdown file B6 writes beside the JSON."""
from __future__ import annotations

from typing import Any

from ...core.text_table import RULE, format_table, percent

COMPONENTS = ("characters", "relationships", "sentiment", "action_layer", "text_span")
DETAIL_METRICS = (
    "character_precision", "character_recall", "character_f1", "character_archetype_accuracy",
    "relationship_precision", "relationship_recall", "relationship_f1", "level1_accuracy", "level2_accuracy",
    "relationship_pair_coverage", "sentiment_precision", "sentiment_recall", "sentiment_f1",
    "sentiment_polarity_accuracy", "action_category_accuracy", "action_type_accuracy", "action_context_accuracy",
    "action_status_accuracy", "action_function_accuracy", "action_layer_complete_match",
    "action_layer_partial_match", "boundary_score", "overlap_ratio",
)


def _score(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _component_rows(report: dict[str, Any], averaging: str) -> list[list[str]]:
    rows = []
    for model in report["comparison"]["ranking"]:
        metrics = report["models"][model]
        components = metrics[f"components_{averaging}"]
        rows.append([model, _score(metrics[averaging]["overall_score"]), *(_score(components[c]) for c in COMPONENTS),
                     str(metrics["documents"])])
    return rows


def _invalid_rows(report: dict[str, Any]) -> list[list[str]]:
    rows = []
    for model in report["comparison"]["ranking"]:
        for field, entry in sorted(report["models"][model]["invalid_labels"].items()):
            rows.append([model, field, str(entry["invalid"]), str(entry["predicted"]), percent(entry["rate"]),
                         ", ".join(entry["labels"][:5])])
    return rows


def _set_aside_lines(report: dict[str, Any]) -> list[str]:
    lines = []
    for model, aside in report["set_aside"].items():
        missing = report["models"][model]["documents_without_prediction"]
        lines.append(f"{model}: {aside['question_rows_rejected']} ground-truth and "
                     f"{aside['prediction_rows_rejected']} predicted documents set aside; {missing} documents "
                     f"without a prediction (scored as empty); {aside['unmatched_predictions']} predictions "
                     "without ground truth")
    return lines


def render_annotation_text(dataset: str, report: dict[str, Any]) -> str:
    """Models side by side: overall and component scores (macro and micro over documents), events, set aside."""
    header = ["模型 (model)", "overall", *COMPONENTS, "docs"]
    blocks = [f"数据集: {dataset} (annotation)"]
    for averaging in ("macro", "micro"):
        blocks.append(f"{averaging} over documents:\n" + format_table(header, _component_rows(report, averaging)))
    events = [[m, str(e["total_events"]), str(e["aligned_events"]), str(e["missing_events"]), str(e["extra_events"]),
               percent(e["event_accuracy"])] for m, e in
              ((m, report["models"][m]["events"]) for m in report["comparison"]["ranking"])]
    blocks.append("events:\n" + format_table(["model", "gold", "aligned", "missing", "extra", "event_accuracy"],
                                             events))
    invalid = _invalid_rows(report)
    if invalid:
        blocks.append("labels outside the taxonomy:\n"
                      + format_table(["model", "field", "invalid", "predicted", "rate", "examples"], invalid))
    blocks.append("\n".join(_set_aside_lines(report)))
    return "\n\n".join(blocks) + f"\n{RULE}"


def _markdown_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines.extend("| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows)
    return "\n".join(lines)


def render_annotation_markdown(dataset: str, report: dict[str, Any]) -> str:
    """The same report as Markdown, with every component metric per model."""
    ranking = report["comparison"]["ranking"]
    header = ["model", "overall", *COMPONENTS, "documents"]
    parts = [f"# Annotation evaluation: {dataset}", "",
             "Component scores: characters = character_f1, relationships = relationship_f1, sentiment = "
             "sentiment_f1, action_layer = accuracy over labelled action fields, text_span = Boundary Similarity. "
             "Metrics with no defined denominator are n/a.", ""]
    for averaging in ("macro", "micro"):
        parts += [f"## Scores ({averaging} over documents)", "",
                  _markdown_table(header, _component_rows(report, averaging)), ""]
    detail_rows = [[metric, *(_score(report["models"][m]["micro"].get(metric)) for m in ranking)]
                   for metric in DETAIL_METRICS]
    parts += ["## Every metric (micro)", "", _markdown_table(["metric", *ranking], detail_rows), ""]
    event_names = ("total_events", "aligned_events", "missing_events", "extra_events", "correct_events")
    event_rows = [[name, *(str(report["models"][m]["events"][name]) for m in ranking)] for name in event_names]
    event_rows.append(["event_accuracy", *(_score(report["models"][m]["events"]["event_accuracy"]) for m in ranking)])
    parts += ["## Events", "", _markdown_table(["", *ranking], event_rows), ""]
    invalid = _invalid_rows(report)
    if invalid:
        parts += ["## Labels outside the taxonomy", "",
                  _markdown_table(["model", "field", "invalid", "predicted", "rate", "examples"], invalid), ""]
    parts += ["## Set aside", "", *(f"- {line}" for line in _set_aside_lines(report)), ""]
    return "\n".join(parts)
