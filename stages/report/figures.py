"""B6's sections of each model's figures, from what its shards' artifacts say: metrics (a sharded kind's from the sum
of its score_stats, never a mean of means), what was set aside, its replies, and the per-item figures (samples,
distributions, intervals)."""
from __future__ import annotations

from collections.abc import Iterable
from functools import reduce
from typing import Any

from ..core.stats import add_stats
from ..kinds import Kind
from .aggregate import item_distribution
from .intervals import uncertainty
from .sampling import sampling_summary


def summed(counts: Iterable[dict[str, Any]]) -> dict[str, int]:
    """Counts of several shards added up."""
    return dict(reduce(add_stats, counts, {}))


def model_metrics(kind: Kind, scored: list[dict[str, Any]]) -> dict[str, Any]:
    """A model's metrics from its B5 documents, one per shard."""
    if kind.shardable:
        return kind.metrics_from_stats(reduce(add_stats, (document["stats"] for document in scored), {}))
    return scored[0]["metrics"]


def set_aside_counts(question_counts: dict[str, int], predictions: list[dict[str, Any]],
                     joins: list[dict[str, Any]]) -> dict[str, int]:
    """What was set aside of one model's rows, summed over shards: questions and predictions rejected, questions
    without a prediction and predictions without a question."""
    joined = summed(document["header"]["counts"] for document in joins)
    return {"question_rows_rejected": question_counts["rejected"],
            "prediction_rows_rejected": summed(d["header"]["counts"] for d in predictions)["rejected"],
            "missing_predictions": joined["missing_predictions"],
            "unmatched_predictions": joined["unmatched_predictions"]}


def reply_counts(predictions: list[dict[str, Any]], joins: list[dict[str, Any]]) -> dict[str, int]:
    """One model's replies: how many, how many end inside their reasoning, how many were cut at max_tokens."""
    joined = summed(document["header"]["counts"] for document in joins)
    generated = predictions[0]["header"].get("generation") or {}
    return {"replies": joined["replies"], "unfinished_reasoning": joined.get("unfinished_reasoning", 0),
            "cut_at_max_tokens": generated.get("cut_at_max_tokens", 0)}


def replies_section(replies: dict[str, dict[str, int]]) -> dict[str, Any]:
    """The replies section, only when some model's replies ended inside their reasoning or were cut short."""
    if any(found["unfinished_reasoning"] or found["cut_at_max_tokens"] for found in replies.values()):
        return {"replies": replies}
    return {}


def per_item_values(items: dict[str, dict[str, list]],
                    sampled: dict[str, dict[str, Any]]) -> dict[str, dict[str, list]]:
    """Each model's per-item values of its paired metrics: of several replies per item, the item means."""
    return {model: sampled[model]["means"] if model in sampled else values for model, values in items.items()}


def item_sections(kind: Kind, primary: str, per_item: dict[str, dict[str, list]],
                  sampled: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The per-item figures: of several replies per item, each model's samples summary, the distributions of the
    primary metric and every model's intervals and paired differences."""
    section: dict[str, Any] = {}
    if sampled:
        section["samples"] = {model: sampling_summary(found) for model, found in sampled.items()}
    section["distributions"] = {model: d for model, values in per_item.items()
                                if (d := item_distribution(kind.name, primary, values)) is not None}
    tests = {metric: "mean" if sampled else test for metric, test in kind.paired_metrics.items()}  # item means
    section.update(uncertainty(tests, primary, per_item))
    return section


def generation_section(predictions: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """How each generated model's replies were asked (its B2 header's generation summary), when any was."""
    generation = {model: documents[0]["header"].get("generation") for model, documents in predictions.items()}
    if not any(generation.values()):
        return {}
    return {"generation": {model: summary for model, summary in generation.items() if summary}}
