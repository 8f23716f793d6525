"""Dialogue kind (seed 003): persona responses scored by exact, fuzzy, edit, semantic and keyword similarity, per
scene and overall, with a CSV for human raters."""
from __future__ import annotations

import logging
from collections import Counter
from typing import Any

from rapidfuzz.distance import Indel, Levenshtein
from rapidfuzz.process import cpdist

from ...core.param_rules import named_in, weights_over
from ...core.ratios import mean
from ...core.records import Columns
from ...core.text_table import format_table
from ...raters.carry_over import carry_over_labels
from ...raters.sheet import ANNOTATION_CSV, annotation_csv
from ...text.embeddings import (
    DEFAULT_SEMANTIC_MODEL,
    EMBEDDERS,
    EmbedderUnavailable,
    load_embedder,
    semantic_similarities,
)
from ...text.keywords import keyword_jaccard
from ..base import Kind, rank_models, register_kind
from .similarity import DEFAULT_WEIGHTS, METRICS, combined_score

log = logging.getLogger("evalpipe")
MISSING = "missing"
_warned: set[str] = set()


def semantic_column(expected: list[str], predictions: list[str | None], spec: str) -> tuple[list, dict[str, Any]]:
    """sentence_bert per row (None where there is no prediction), and what model produced it — or why none did;
    an unavailable model is reported once per process, never scored as 0."""
    if spec == "none":
        return [None] * len(expected), {"name": "none", "available": False, "reason": "disabled (semantic_model = none)"}
    try:
        embedder = load_embedder(spec)
    except EmbedderUnavailable as exc:
        if spec not in _warned:
            _warned.add(spec)
            log.warning("semantic model unavailable, sentence_bert is null and weights are re-normalized: %s", exc)
        return [None] * len(expected), {"name": spec, "available": False, "reason": str(exc)}
    answered = [i for i, p in enumerate(predictions) if p is not None]
    scores = semantic_similarities([expected[i] for i in answered], [predictions[i] for i in answered], embedder)
    column: list[float | None] = [None] * len(expected)
    for index, score in zip(answered, scores):
        column[index] = score
    return column, {"name": embedder.name, "available": True}


def _used_weights(weights: dict[str, float], semantic_available: bool) -> dict[str, float]:
    used = {name: w for name, w in weights.items() if w and (semantic_available or name != "sentence_bert")}
    total = sum(used.values())
    return {name: w / total for name, w in used.items()} if total else {}


def _summary(rows: list[int], columns: Columns) -> dict[str, Any]:
    summary: dict[str, Any] = {"rows": len(rows), "answered": sum(columns["status"][i] != MISSING for i in rows)}
    for name in (*METRICS, "combined_score"):
        summary[name] = mean([columns[name][i] for i in rows])
    return summary




@register_kind("dialogue")
class Dialogue(Kind):
    """Seed 003's persona evaluation; a missing or failed answer scores 0 on every metric and is counted."""

    defaults = {"weights": DEFAULT_WEIGHTS, "semantic_model": DEFAULT_SEMANTIC_MODEL}
    stage_params = {"B5": ("weights", "semantic_model")}
    question_columns = ("scene", "dialogue_index")
    conversation_column = "scene"  # a scene's turns are asked in order, in one conversation
    param_rules = {"weights": weights_over(METRICS), "semantic_model": named_in(("none", *EMBEDDERS))}
    paired_metrics = {"exact_match": "binary", **{name: "mean" for name in (*METRICS, "combined_score")
                                                  if name != "exact_match"}}

    def question_fields(self, record: dict, question: str | None) -> dict[str, Any]:
        index = record.get("dialogue_index")
        if isinstance(index, float) and index.is_integer():
            index = int(index)
        return {"scene": str(record.get("scene") or ""), "dialogue_index": "" if index is None else str(index)}

    def normalize(self, joined: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        predictions = [None if p is None else p.strip() for p in joined["prediction"]]
        columns = {"id": joined["id"], "scene": joined["scene"], "dialogue_index": joined["dialogue_index"],
                   "context": joined["question"], "expected": [g[0].strip() for g in joined["golds"]],
                   "prediction": predictions,
                   "status": [MISSING if p is None else "answered" for p in predictions]}
        return columns, {"status": dict(Counter(columns["status"]))}

    def match(self, normalized: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        import numpy as np
        expected = normalized["expected"]
        predictions = [p or "" for p in normalized["prediction"]]
        answered = [s != MISSING for s in normalized["status"]]
        fuzzy = cpdist(expected, predictions, scorer=Indel.normalized_similarity, workers=-1, dtype=np.float64)
        edit = cpdist(expected, predictions, scorer=Levenshtein.normalized_similarity, workers=-1,
                      dtype=np.float64)
        columns = {**normalized,
                   "exact_match": [float(ok and e == p) for ok, e, p in zip(answered, expected, predictions)],
                   "fuzzy_match": [float(f) if ok else 0.0 for ok, f in zip(answered, fuzzy)],
                   "edit_distance": [float(d) if ok else 0.0 for ok, d in zip(answered, edit)],
                   "keyword_similarity": [keyword_jaccard(e, p) if ok else 0.0
                                          for ok, e, p in zip(answered, expected, predictions)]}
        return columns, {"exact_matches": int(sum(columns["exact_match"]))}

    def score(self, matched: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        semantic, model = semantic_column(matched["expected"], matched["prediction"], params["semantic_model"])
        answered = [s != MISSING for s in matched["status"]]
        columns = {**matched, "sentence_bert": [s if ok else (0.0 if model["available"] else None)
                                                for ok, s in zip(answered, semantic)]}
        columns["combined_score"] = [
            combined_score({name: columns[name][i] for name in METRICS}, params["weights"]) if answered[i] else 0.0
            for i in range(len(answered))]
        scenes: dict[str, list[int]] = {}
        for index, scene in enumerate(columns["scene"]):
            scenes.setdefault(scene, []).append(index)
        overall = _summary(list(range(len(answered))), columns)
        metrics = {**overall, "missing": overall["rows"] - overall["answered"],
                   "by_scene": {scene: _summary(rows, columns) for scene, rows in scenes.items()},
                   "semantic_model": model, "weights": params["weights"],
                   "weights_used": _used_weights(params["weights"], model["available"])}
        return columns, metrics

    def parse_rate(self, metrics: dict[str, Any]) -> float | None:
        return metrics["answered"] / metrics["rows"] if metrics["rows"] else None

    def item_view(self, matched: dict[str, Any]) -> tuple[str, str]:
        status = "correct" if matched.get("exact_match") == 1.0 else "scored"
        return status, f"fuzzy {matched.get('fuzzy_match') or 0:.2f}, edit {matched.get('edit_distance') or 0:.2f}"

    def compare(self, metrics_by_model: dict[str, dict[str, Any]], params: dict[str, Any]) -> dict[str, Any]:
        comparison = rank_models(metrics_by_model, "combined_score")
        scenes = dict.fromkeys(s for m in metrics_by_model.values() for s in m["by_scene"])
        comparison["by_scene"] = {scene: {model: m["by_scene"].get(scene, {}).get("combined_score")
                                          for model, m in metrics_by_model.items()} for scene in scenes}
        return comparison

    def render(self, dataset: str, report: dict[str, Any]) -> str:
        models = report["comparison"]["ranking"]
        rows = [[model, str(m["rows"]), str(m["missing"]), *(_score(m[name]) for name in (*METRICS, "combined_score"))]
                for model, m in ((model, report["models"][model]) for model in models)]
        text = format_table(["model", "cases", "missing", *METRICS, "combined_score"], rows)
        scenes = [[scene, *(_score(by_model.get(model)) for model in models)]
                  for scene, by_model in report["comparison"]["by_scene"].items()]
        text += "\n\ncombined_score by scene:\n" + format_table(["scene", *models], scenes)
        notes = {f"{m}: sentence_bert unavailable ({report['models'][m]['semantic_model']['reason']}); weights "
                 "re-normalized" for m in models if not report["models"][m]["semantic_model"]["available"]}
        return text + "".join(f"\n{note}" for note in sorted(notes))

    def report_files(self, dataset: str, report: dict[str, Any], rows_by_model: dict[str, Columns]) -> dict[str, bytes]:
        return {ANNOTATION_CSV: annotation_csv(rows_by_model)}

    def keep_human_edits(self, name: str, previous: bytes, fresh: bytes) -> tuple[bytes, int, int]:
        if name != ANNOTATION_CSV:
            return fresh, 0, 0
        merged = carry_over_labels(previous, fresh)
        return merged.data, merged.carried, merged.left_behind


def _score(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.4f}"
