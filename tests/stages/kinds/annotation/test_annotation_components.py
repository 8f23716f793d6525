"""Seed 001 component evaluators, each against values worked out by hand, including every missing-ground-truth
case of §5.4 and §6.1."""
import pytest

from stages import (
    align_events,
    evaluate_action_layer,
    evaluate_characters,
    evaluate_relationships,
    evaluate_sentiment,
    handle_missing_ground_truth,
    pair_event_relations,
    precision_recall_f1,
)
from stages.kinds.annotation.characters import name_resolvers


def rel(agent, target, level1="Social", level2="friend", sentiment="positive"):
    return {"agent": agent, "target": target, "relationship_level1": level1, "relationship_level2": level2,
            "sentiment": sentiment}


def relationship_results(prediction, ground_truth, polarity=None):
    predicted, gold = prediction["narrative_events"], ground_truth["narrative_events"]
    alignment = align_events(predicted, gold)
    paired = pair_event_relations(predicted, gold, alignment, name_resolvers(prediction, ground_truth))
    extra = [predicted[i] for i in alignment.extra]
    return evaluate_relationships(paired, extra), evaluate_sentiment(paired, polarity)


@pytest.mark.parametrize("prediction, gold, status, error", [
    ("x", None, "extra", False), (["x"], [], "extra", False), ("x", "", "extra", False), ("x", "  ", "extra", False),
    (None, [], "matched", False), ({}, None, "matched", False),
    (None, "x", "missing", True), ("", ["x"], "missing", True),
    ("x", "y", "mismatch", None),
])
def test_handle_missing_ground_truth(prediction, gold, status, error):
    result = handle_missing_ground_truth(prediction, gold, "field")
    assert (result["status"], result["count_as_error"]) == (status, error) and "field" in result["reason"]


def test_precision_recall_f1_undefined_denominators_are_none():
    assert precision_recall_f1(2, 1, 3) == {"precision": 2 / 3, "recall": 2 / 5, "f1": 4 / 8}
    assert precision_recall_f1(0, 0, 3) == {"precision": None, "recall": 0.0, "f1": 0.0}
    assert precision_recall_f1(0, 0, 0) == {"precision": None, "recall": None, "f1": None}


def test_characters_match_by_name_or_alias_case_and_width_insensitive():
    gold = {"characters": [{"name": "Alice", "alias": ["Al"], "archetype": "hero"},
                           {"name": "王母娘娘", "alias": "王母，西王母", "archetype": "villain"},
                           {"name": "Bob", "archetype": "mentor"}]}
    prediction = {"characters": [{"name": "ＡＬＩＣＥ", "archetype": "Hero"},  # full-width, upper case
                                 {"name": "西王母", "archetype": "mentor"},  # alias; wrong archetype
                                 {"name": "Carol", "archetype": "helper"}]}
    result = evaluate_characters(prediction, gold)
    assert result["character_precision"] == pytest.approx(2 / 3)
    assert result["character_recall"] == pytest.approx(2 / 3)
    assert result["character_f1"] == pytest.approx(2 / 3)
    assert result["character_archetype_accuracy"] == pytest.approx(1 / 2)
    assert result["missing_characters"] == ["Bob"] and result["extra_characters"] == ["Carol"]
    assert result["gt_incomplete"] is False


def test_same_name_beats_alias_when_pairing_characters():
    gold = {"characters": [{"name": "Mary", "alias": "Queen"}, {"name": "Queen"}]}
    prediction = {"characters": [{"name": "Queen"}, {"name": "Mary"}]}
    result = evaluate_characters(prediction, gold)
    assert result["matched_characters"] == [["Queen", "Queen"], ["Mary", "Mary"]]


@pytest.mark.parametrize("gold_characters", [[], None])
def test_empty_gold_characters_are_gt_incomplete_and_not_errors(gold_characters):
    result = evaluate_characters({"characters": [{"name": "A"}, {"name": "B"}]}, {"characters": gold_characters})
    assert result["gt_incomplete"] is True and result["gt_incomplete_reason"]
    assert result["extra_characters"] == ["A", "B"] and result["counts"]["fp"] == 0
    assert result["character_precision"] is None and result["character_recall"] is None
    assert result["character_f1"] is None


def test_no_predicted_characters_gives_zero_recall_and_undefined_precision():
    result = evaluate_characters({"characters": []}, {"characters": [{"name": "A", "archetype": "hero"}]})
    assert (result["character_precision"], result["character_recall"], result["character_f1"]) == (None, 0.0, 0.0)
    assert result["character_archetype_accuracy"] is None and result["status"] == "missing"


def test_seed_5_4_empty_gold_relationships_are_not_counted():
    ground_truth = {"narrative_events": [{"id": "event1", "relationships": []}]}
    prediction = {"narrative_events": [{"id": "event1", "relationships": [
        rel("角色A", "角色B", "Family & Kinship", "sibling", "positive")]}]}
    relationships, sentiment = relationship_results(prediction, ground_truth)
    assert relationships["relationship_precision"] is None and relationships["relationship_recall"] is None
    assert relationships["relationship_f1"] is None
    assert relationships["gt_incomplete"] is True
    assert relationships["gt_incomplete_reason"] == "Event 'event1' has empty relationships in ground truth"
    assert relationships["extra_relationships"] == prediction["narrative_events"][0]["relationships"]
    assert relationships["n_events_skipped"] == 1
    assert sentiment["sentiment_f1"] is None  # whole relationships list empty: sentiment skipped


def test_relationships_by_hand():
    ground_truth = {"characters": [{"name": "牛郎"}, {"name": "织女", "alias": "仙女"}, {"name": "王母"}],
                    "narrative_events": [
                        {"id": "e1", "relationships": [rel("牛郎", "织女", "Family", "spouse", "love"),
                                                       rel("王母", "织女", "Power", "oppressor", "anger")]},
                        {"id": "e2", "relationships": [rel("王母", "牛郎", "Conflict", "enemy", "hostility")]},
                        {"id": "e3", "relationships": [rel("织女", "牛郎", "Family", "", "love")]}]}
    prediction = {"characters": [{"name": "牛郎"}, {"name": "仙女"}], "narrative_events": [
        {"id": "e1", "relationships": [rel("牛郎", "仙女", "family", "SPOUSE", "love"),  # alias, case: correct
                                       rel("王母", "织女", "Power", "ruler", "anger"),  # level 2 wrong
                                       rel("牛郎", "王母", "Conflict", "enemy", "fear")]},  # no such gold pair
        {"id": "e3", "relationships": [rel("织女", "牛郎", "Family", "spouse", "love")]},  # gold level 2 empty
        {"id": "e9", "relationships": [rel("x", "y")]},  # event not in the gold: skipped
    ]}
    relationships, _ = relationship_results(prediction, ground_truth)
    # tp: e1 #1, e3 #1; fp: e1 #2, e1 #3; fn: e1 #2, e2 #1 (its event was not predicted)
    assert relationships["counts"]["tp"] == 2 and relationships["counts"]["fp"] == 2
    assert relationships["counts"]["fn"] == 2
    assert relationships["relationship_precision"] == pytest.approx(0.5)
    assert relationships["relationship_recall"] == pytest.approx(0.5)
    assert relationships["level1_accuracy"] == pytest.approx(3 / 3)
    assert relationships["level2_accuracy"] == pytest.approx(1 / 2)  # e3's gold level 2 is not counted
    assert relationships["relationship_pair_coverage"] == pytest.approx(3 / 4)
    assert relationships["n_events_not_in_ground_truth"] == 1
    assert relationships["extra_relationships"] == [rel("x", "y")]


def test_sentiment_sets_polarity_and_unlabelled_gold():
    ground_truth = {"narrative_events": [{"id": "e1", "relationships": [
        rel("A", "B", sentiment=["love", "trust"]), rel("B", "A", sentiment="anger"), rel("C", "A", sentiment=""),
        rel("D", "A", sentiment=None), rel("E", "A", sentiment="fear")]}]}
    prediction = {"narrative_events": [{"id": "e1", "relationships": [
        rel("A", "B", sentiment="love"), rel("B", "A", sentiment=["anger", "Fear"]),
        rel("C", "A", sentiment="joy"), rel("D", "A", sentiment="joy")]}]}  # E→A not predicted
    polarity = {"love": "positive", "trust": "positive", "anger": "negative", "fear": "negative",
                "joy": "positive"}
    _, sentiment = relationship_results(prediction, ground_truth, polarity)
    # A→B: tp 1 fn 1; B→A: tp 1 fp 1; E→A: fn 1; C→A and D→A: gold unlabelled, not counted
    assert sentiment["counts"] == {"tp": 2, "fp": 1, "fn": 2, "polarity_correct": 2, "polarity_total": 3}
    assert sentiment["sentiment_precision"] == pytest.approx(2 / 3)
    assert sentiment["sentiment_recall"] == pytest.approx(2 / 4)
    assert sentiment["sentiment_polarity_accuracy"] == pytest.approx(2 / 3)
    assert sentiment["gt_incomplete"] is True and len(sentiment["unlabelled_relationships"]) == 2


def _action_events(layers):
    return [{"id": f"e{i}", "action_layer": layer} for i, layer in enumerate(layers)]


def test_action_layer_only_labelled_gold_fields_count():
    gold = _action_events([
        {"category": "Physical", "type": "attack", "context": "duel", "status": "success", "function": "trigger"},
        {"category": "Social"},  # only category labelled
        {"category": "Physical", "type": "", "status": None},
        {},  # empty: skipped
        None,  # missing: skipped
    ])
    predicted = _action_events([
        {"category": "physical", "type": "attack", "context": "war", "status": "success", "function": "trigger"},
        {"category": "Social", "type": "anything"},
        {"category": "Movement", "type": "run", "status": "failure"},
        {"category": "x"},
        {"category": "y"},
    ])
    result = evaluate_action_layer(predicted, gold, align_events(predicted, gold))
    assert result["action_category_accuracy"] == pytest.approx(2 / 3)
    assert result["action_type_accuracy"] == 1.0 and result["action_context_accuracy"] == 0.0
    assert result["action_status_accuracy"] == 1.0 and result["action_function_accuracy"] == 1.0
    assert result["action_layer_complete_match"] == pytest.approx(1 / 3)
    assert result["action_layer_partial_match"] == pytest.approx(1 / 3)
    assert result["action_field_accuracy"] == pytest.approx(5 / 7)
    assert result["n_events_skipped"] == 2 and result["gt_incomplete"] is True


def test_action_layer_of_an_unpredicted_gold_event_is_wrong():
    gold = _action_events([{"category": "Physical", "type": "attack"}])
    result = evaluate_action_layer([], gold, align_events([], gold))
    assert result["action_field_accuracy"] == 0.0 and result["action_layer_partial_match"] == 0.0
    assert [e["field"] for e in result["action_errors"]] == ["category", "type"]


def _span_event(event_id, start, end):
    return {"id": event_id, "text_span": {"start": start, "end": end}}


def test_events_align_by_id_then_by_optimal_span_overlap():
    gold = [_span_event("g1", 0, 10), _span_event("g2", 10, 20), _span_event("same", 40, 50),
            _span_event("g4", 60, 70)]
    predicted = [_span_event("p1", 5, 15), _span_event("p2", 0, 9), _span_event("same", 0, 5),
                 _span_event("p4", 90, 99)]
    alignment = align_events(predicted, gold, text_length=100)
    # greedy on p1 would take g1 (IoU 1/3) and leave p2 worse off; optimal: p2→g1 (0.9), p1→g2 (1/3)
    assert alignment.pairs == [(1, 0, "span"), (0, 1, "span"), (2, 2, "id")]
    assert alignment.missing == [3] and alignment.extra == [3]


def test_span_alignment_respects_the_minimum_overlap():
    gold, predicted = [_span_event("g", 0, 10)], [_span_event("p", 8, 20)]  # IoU 2/20
    assert align_events(predicted, gold, 20, min_iou=0.3).pairs == []
    assert align_events(predicted, gold, 20, min_iou=0.05).pairs == [(0, 0, "span")]
