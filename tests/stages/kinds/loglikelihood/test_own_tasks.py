"""`task = "rolling"` as a task of its own: named by its task, and found from the rows, stats and figures it makes
(the stages that are handed no params); choice tasks' rows, stats and figures are not its."""
from __future__ import annotations

import math

from stages.kinds import get_kind
from stages.kinds.loglikelihood.own_tasks import (
    task_named,
    task_of_items,
    task_of_matched,
    task_of_metrics,
    task_of_stats,
)
from stages.kinds.loglikelihood.rolling_task import ROLLING

DOCUMENTS = {"id": ["a", "b"], "choices": [["one two three"], ["naïve café"]], "gold": [None, None],
             "subject": [None, None], "loglikelihoods": [[-6.0], None]}
CHOICES = {"id": ["q"], "choices": [["x", "y"]], "gold": [1], "subject": [None], "loglikelihoods": [[-1.0, -0.5]],
           "greedy": [None]}


def test_the_rolling_task_is_named_and_found_from_what_each_stage_is_handed():
    kind = get_kind("loglikelihood")
    assert task_named("rolling") is ROLLING and task_named("arc_easy") is task_named("") is None
    assert task_of_items(DOCUMENTS) is ROLLING and task_of_items(CHOICES) is None
    assert task_of_items({"id": [], "gold": []}) is None  # an empty shard keeps the choice rows' shape
    matched, _ = kind.match(DOCUMENTS, {})
    assert task_of_matched(matched) is ROLLING and task_of_matched(kind.match(CHOICES, {})[0]) is None
    stats = kind.score_stats(matched)
    assert task_of_stats(stats) is ROLLING and task_of_stats(kind.score_stats(kind.match(CHOICES, {})[0])) is None
    metrics = kind.metrics_from_stats(stats)
    assert (metrics["rows"], metrics["words"], metrics["answer_rate"]) == (2, 3, 0.5)
    assert metrics["word_perplexity"] == math.exp(6.0 / 3)
    assert task_of_metrics({"m": metrics}) is ROLLING and task_of_metrics({"m": {"acc": 1.0}}) is None
    assert kind.headline({"m": metrics}) == ("word_perplexity", "byte_perplexity", "bits_per_byte")
    assert kind.item_view({"loglikelihoods": [-6.0], "loglikelihood": -6.0, "words": 3, "bytes": 13}) == (
        "scored", "loglikelihood -6.000 over 3 words, 13 bytes")
