"""Seed 003's response metrics: exact, fuzzy, edit, semantic and keyword similarity, and their weighted combination."""
from __future__ import annotations

from typing import Any

from rapidfuzz.distance import Indel, Levenshtein

from ...core.ratios import weighted_mean
from ...text.embeddings import (
    DEFAULT_SEMANTIC_MODEL,
    Embedder,
    EmbedderUnavailable,
    load_embedder,
    semantic_similarities,
)
from ...text.keywords import keyword_jaccard

METRICS = ("exact_match", "fuzzy_match", "edit_distance", "sentence_bert", "keyword_similarity")
DEFAULT_WEIGHTS = {"exact_match": 0.5, "fuzzy_match": 0.2, "edit_distance": 0.1, "sentence_bert": 0.1,
                   "keyword_similarity": 0.1}


def exact_match(expected: str, prediction: str) -> float:
    """1.0 when the responses are identical apart from surrounding whitespace, else 0.0."""
    return 1.0 if expected.strip() == prediction.strip() else 0.0


def fuzzy_match(expected: str, prediction: str) -> float:
    """Indel similarity 2·LCS / (|a| + |b|) (rapidfuzz's ratio): SequenceMatcher's measure without its junk
    heuristics, never lower than difflib's ratio."""
    return Indel.normalized_similarity(expected, prediction)


def edit_distance(expected: str, prediction: str) -> float:
    """1 − Levenshtein distance / length of the longer response (1.0 for two empty responses)."""
    return Levenshtein.normalized_similarity(expected, prediction)


def combined_score(scores: dict[str, float | None], weights: dict[str, float] | None = None) -> float:
    """Weighted mean of the metrics; weights of undefined (None) metrics are dropped and the rest re-normalized."""
    combined = weighted_mean(scores, weights or DEFAULT_WEIGHTS)
    return 0.0 if combined is None else combined


def lexical_scores(expected: str, prediction: str) -> dict[str, float | None]:
    """Every metric that needs no model."""
    return {"exact_match": exact_match(expected, prediction), "fuzzy_match": fuzzy_match(expected, prediction),
            "edit_distance": edit_distance(expected, prediction),
            "keyword_similarity": keyword_jaccard(expected, prediction)}


def similarity_scores(expected: str, prediction: str, weights: dict[str, float] | None = None,
                      embedder: Embedder | None = None, semantic_model: str = DEFAULT_SEMANTIC_MODEL) -> dict[str, Any]:
    """Seed 003's metric dict for one pair, sentence_bert from `embedder` or else `semantic_model` (the dialogue
    kind's default; "none" turns it off). Where no model can be loaded sentence_bert is None and combined_score
    re-normalizes the weights over the metrics that are defined."""
    scores: dict[str, Any] = lexical_scores(expected, prediction)
    if embedder is None and semantic_model != "none":
        try:
            embedder = load_embedder(semantic_model)
        except EmbedderUnavailable:
            embedder = None
    scores["sentence_bert"] = semantic_similarities([expected], [prediction], embedder)[0] if embedder else None
    scores["combined_score"] = combined_score(scores, weights)
    return {name: scores[name] for name in (*METRICS, "combined_score")}
