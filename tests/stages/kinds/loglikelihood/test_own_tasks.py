"""`task = "rolling"` as a registered task of its own: named by dataset.toml's `task`, the kind bound to it
(for_params) hands it every stage — nothing is told from the shape of the rows, stats or figures."""
import math

import pytest

from stages.kinds import get_kind, report_kind
from stages.kinds.loglikelihood.own_tasks import OWN_TASKS, OwnTask, task_named
from stages.kinds.loglikelihood.own_tasks.rolling import ROLLING
from stages.report.aggregate import build_dataset_report

DOCUMENTS = {"id": ["a", "b"], "choices": [["one two three"], ["naïve café"]], "gold": [None, None],
             "subject": [None, None], "loglikelihoods": [[-6.0], None]}
CHOICES = {"id": ["q"], "choices": [["x", "y"]], "gold": [1], "subject": [None], "loglikelihoods": [[-1.0, -0.5]],
           "greedy": [None]}


def test_the_rolling_task_is_registered_and_named():
    assert OWN_TASKS.names() == ["rolling"] and task_named("rolling") is ROLLING
    assert task_named("arc_easy") is task_named("") is None
    kind = get_kind("loglikelihood")
    assert kind.for_params({"task": "arc_easy"}) is kind and kind.for_params({}) is kind
    bound = kind.for_params({"task": "rolling"})
    assert bound is not kind and bound.own_task is ROLLING and bound.bound_task == "rolling" and kind.own_task is None


def test_the_bound_kind_hands_the_rolling_task_every_stage():
    bound = get_kind("loglikelihood").for_params({"task": "rolling"})
    matched, info = bound.match(DOCUMENTS, {})
    assert matched["loglikelihood"] == [-6.0, None] and matched["words"] == [3, 2] and matched["bytes"] == [13, 12]
    assert info == {"statuses": {"scored": 1, "missing": 1}}
    metrics = bound.metrics_from_stats(bound.score_stats(matched))
    assert (metrics["rows"], metrics["words"], metrics["answer_rate"]) == (2, 3, 0.5)
    assert metrics["word_perplexity"] == math.exp(6.0 / 3)
    assert bound.headline({"m": metrics}) == ("word_perplexity", "byte_perplexity", "bits_per_byte")
    assert bound.item_view({"loglikelihoods": [-6.0], "loglikelihood": -6.0, "words": 3, "bytes": 13}) == (
        "scored", "loglikelihood -6.000 over 3 words, 13 bytes")


def test_the_unbound_kind_scores_choices_whatever_its_rows_look_like():
    """Documents handed to the kind a choice task runs are not taken for the rolling task (no shape is read)."""
    kind = get_kind("loglikelihood")
    matched, _ = kind.match(CHOICES, {})
    assert "loglikelihood" not in matched and matched["chosen"] == [1]
    one_choice = {**DOCUMENTS, "gold": [0, 0], "greedy": [None, None]}
    assert "loglikelihood" not in kind.match(one_choice, {})[0]
    assert kind.headline({"m": {"word_perplexity": 2.0}}) == ("acc", "acc_norm")


def test_a_report_names_its_bound_task_and_is_rendered_by_it():
    bound = get_kind("loglikelihood").for_params({"task": "rolling"})
    metrics = bound.metrics_from_stats(bound.score_stats(bound.match(DOCUMENTS, {})[0]))
    report = build_dataset_report("wiki", bound, {"m": metrics}, {"m": {}})
    assert report["kind"] == "loglikelihood" and report["task"] == "rolling"
    assert report["comparison"] == {"primary_metric": "word_perplexity", "ranking": ["m"]}
    assert report_kind(report).own_task is ROLLING
    assert "word_perplexity" in report_kind(report).render("wiki", report)
    choices = build_dataset_report("arc", "loglikelihood", {"m": {"acc": 1.0}}, {"m": {}})
    assert "task" not in choices and report_kind(choices) is get_kind("loglikelihood")


@pytest.mark.parametrize("name", OWN_TASKS.names())
def test_every_registered_task_is_a_whole_part_the_kind_accepts(name):
    """Each registered own task (no list kept here): `task = name` passes the kind's rule, binds the kind, and the
    task implements every stage the bound kind hands it."""
    kind, task = get_kind("loglikelihood"), OWN_TASKS.get(name)
    assert kind.param_rules["task"](name) is None and kind.for_params({"task": name}).own_task is task
    assert task.name == name and task.headline_metrics
    stages = [n for n, v in vars(OwnTask).items() if callable(v) and not n.startswith("_")]
    assert all(getattr(type(task), n) is not getattr(OwnTask, n) for n in stages), stages
