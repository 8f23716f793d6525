"""Annotation kind: JSON v3 documents in ground_truth/ and predictions/<model>/, paired by file stem."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson

from ...core.param_rules import at_least, weights_over, within
from ...core.progress import track
from ...core.records import Columns, LoadResult, Reject
from ...io.json_depth import load_json
from ...io.storage import read_input_bytes
from ..base import Kind, rank_models, register_kind
from .document import (
    ACTION_FIELDS,
    RELATIONSHIP_LABELS,
    document_problem,
    events_of,
    is_empty,
    normalize_label,
    story_text,
)
from .evaluate import COMPONENT_METRIC, DEFAULT_WEIGHTS, aggregate_annotations, evaluate_annotation
from .event_alignment import EventAlignment, align_events
from .report import render_annotation_markdown, render_annotation_text

EMPTY_DOCUMENT: dict[str, Any] = {"characters": [], "narrative_events": []}


def read_document(path: Path) -> tuple[dict[str, Any] | None, Reject | None]:
    """One JSON v3 document, or why it is set aside (not UTF-8, not JSON — with its line —, wrong types)."""
    try:
        raw = read_input_bytes(path)
        document = load_json(raw)
    except OSError as exc:
        return None, Reject(str(path), None, f"unreadable: {exc.strerror or exc}")
    except orjson.JSONDecodeError:
        try:
            json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError:
            return None, Reject(str(path), None, "not UTF-8 text")
        except json.JSONDecodeError as exc:
            return None, Reject(str(path), exc.lineno, f"not valid JSON: {exc.msg} (column {exc.colno})")
        return None, Reject(str(path), None, "not valid JSON")
    problem = document_problem(document)
    if problem:
        return None, Reject(str(path), None, f"wrong type: {problem}")
    return document, None


def load_documents(folder: Path, column: str) -> LoadResult:
    """Every file in `folder` as one row (id = file stem, `column` = the document as JSON text); files that are not
    .json, not valid JSON or of the wrong shape are set aside."""
    result = LoadResult(columns={})
    ids, documents = [], []
    paths = sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))
    for path in track(paths, f"reading {folder.name}/"):
        result.input_rows += 1
        if path.suffix.lower() != ".json":
            result.rejects.append(Reject(str(path), None, "not a .json document"))
            continue
        document, reject = read_document(path)
        if reject is not None:
            result.rejects.append(reject)
            continue
        ids.append(path.stem)
        documents.append(orjson.dumps(document).decode())
    result.columns = {"id": ids, "line": [None] * len(ids), column: documents}
    return result


def _normalized_relation(relation: dict) -> dict:
    sentiment = relation.get("sentiment")
    sentiment = sentiment if isinstance(sentiment, list) else [sentiment]
    return {**relation, **{name: None if is_empty(relation.get(name)) else normalize_label(relation[name])
                           for name in RELATIONSHIP_LABELS},
            "sentiment": [normalize_label(s) for s in sentiment if not is_empty(s)]}


def _normalized_event(event: dict) -> dict:
    normalized = dict(event)
    if event.get("relationships") is not None:
        normalized["relationships"] = [_normalized_relation(r) for r in event["relationships"]]
    if isinstance(event.get("action_layer"), dict):
        normalized["action_layer"] = {**event["action_layer"], **{
            name: normalize_label(event["action_layer"][name]) for name in ACTION_FIELDS
            if not is_empty(event["action_layer"].get(name))}}
    if event.get("id") is not None:
        normalized["id"] = str(event["id"])
    return normalized


def normalize_document(document: dict[str, Any]) -> dict[str, Any]:
    """Labels case- and width-normalized, sentiment as a list, ids as text; names and the story text kept as written
    (names are matched through their normalized form, spans index the original text)."""
    normalized = dict(document)
    if document.get("characters") is not None:
        normalized["characters"] = [
            {**c, "archetype": None if is_empty(c.get("archetype")) else normalize_label(c["archetype"])}
            for c in document["characters"]]
    if document.get("narrative_events") is not None:
        normalized["narrative_events"] = [_normalized_event(e) for e in document["narrative_events"]]
    return normalized


def _dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


@register_kind("annotation")
class Annotation(Kind):
    """Seed 001's component-wise evaluation of JSON v3 story annotations."""

    document_folders = True
    defaults = {"min_event_iou": 0.3, "n_t": 2, "span_iou_threshold": 0.5, "component_weights": DEFAULT_WEIGHTS,
                "taxonomies": {}}
    stage_params = {"B4": ("min_event_iou",), "B5": ("n_t", "span_iou_threshold", "component_weights", "taxonomies")}
    param_rules = {"min_event_iou": within(0, 1), "n_t": at_least(1, integer=True), "span_iou_threshold": within(0, 1),
                   "component_weights": weights_over(COMPONENT_METRIC)}
    paired_metrics = {"overall_score": "mean"}

    def load_gold(self, path: Path, fields: dict[str, str | None], rows: range | None = None,
                  params: dict[str, Any] | None = None) -> LoadResult:
        return load_documents(path, "ground_truth")

    def load_predictions(self, path: Path, fields: dict[str, str | None], rows: range | None = None) -> LoadResult:
        return load_documents(path, "prediction")

    def normalize(self, joined: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        missing = [p is None for p in joined["prediction"]]
        columns = {
            "id": joined["id"],
            "ground_truth": [_dumps(normalize_document(orjson.loads(g))) for g in joined["ground_truth"]],
            "prediction": [_dumps(EMPTY_DOCUMENT if p is None else normalize_document(orjson.loads(p)))
                           for p in joined["prediction"]],
            "prediction_missing": missing,
        }
        return columns, {"documents_without_prediction": sum(missing)}

    def match(self, normalized: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        alignments = []
        pairs = zip(normalized["ground_truth"], normalized["prediction"])
        for gold_text, predicted_text in track(pairs, "aligning events", len(normalized["id"])):
            gold, predicted = orjson.loads(gold_text), orjson.loads(predicted_text)
            text = story_text(predicted, gold)
            alignment = align_events(events_of(predicted), events_of(gold), len(text) if text else None,
                                     params["min_event_iou"])
            alignments.append(alignment.to_dict())
        columns = {**normalized, "alignment": [_dumps(a) for a in alignments]}
        info = {"aligned_events": sum(len(a["pairs"]) for a in alignments),
                "missing_events": sum(len(a["missing"]) for a in alignments),
                "extra_events": sum(len(a["extra"]) for a in alignments)}
        return columns, info

    def score(self, matched: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        results = []
        triples = zip(matched["ground_truth"], matched["prediction"], matched["alignment"])
        for gold_text, predicted_text, alignment_text in track(triples, "scoring documents", len(matched["id"])):
            stored = orjson.loads(alignment_text)
            alignment = EventAlignment([tuple(p) for p in stored["pairs"]], stored["missing"], stored["extra"])
            results.append(evaluate_annotation(
                orjson.loads(predicted_text), orjson.loads(gold_text), taxonomy=params["taxonomies"],
                n_t=params["n_t"], span_iou_threshold=params["span_iou_threshold"],
                weights=params["component_weights"], alignment=alignment))
        columns: Columns = {"id": matched["id"], "overall_score": [r["overall_score"] for r in results]}
        for name in COMPONENT_METRIC:
            columns[name] = [r["component_scores"][name] for r in results]
        columns["event_accuracy"] = [r["summary"]["event_accuracy"] for r in results]
        columns["prediction_missing"] = matched["prediction_missing"]
        columns["details"] = [_dumps(r) for r in results]
        aggregate = aggregate_annotations(results, params["component_weights"])
        metrics = {"rows": len(results), "overall_score": aggregate["macro"]["overall_score"],
                   "documents_without_prediction": sum(matched["prediction_missing"]), **aggregate}
        return columns, metrics

    def parse_rate(self, metrics: dict[str, Any]) -> float | None:
        rows = metrics["rows"]
        return (rows - metrics["documents_without_prediction"]) / rows if rows else None

    def compare(self, metrics_by_model: dict[str, dict[str, Any]], params: dict[str, Any]) -> dict[str, Any]:
        comparison = rank_models(metrics_by_model, "overall_score")
        comparison["components_macro"] = {m: metrics["components_macro"] for m, metrics in metrics_by_model.items()}
        comparison["components_micro"] = {m: metrics["components_micro"] for m, metrics in metrics_by_model.items()}
        return comparison

    def render(self, dataset: str, report: dict[str, Any]) -> str:
        return render_annotation_text(dataset, report)

    def render_markdown(self, dataset: str, report: dict[str, Any]) -> str:
        return render_annotation_markdown(dataset, report)
