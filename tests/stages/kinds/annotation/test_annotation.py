"""evaluate_annotation's composite structure, micro / macro aggregation, taxonomies and broken documents."""
import json

import pytest

from stages import (
    aggregate_annotations,
    document_problem,
    evaluate_annotation,
    invalid_labels,
    load_action_taxonomy,
    load_documents,
    load_relationship_taxonomy,
    load_sentiment_taxonomy,
    overall_score,
)

TEXT = "Ann met Bo. Bo hit Ann! They made up."  # sentences (0, 11), (11, 23), (23, 37)


def _gold():
    return {
        "source_info": {"text_content": TEXT},
        "characters": [{"name": "Ann", "archetype": "hero"}, {"name": "Bo", "alias": ["Bobby"], "archetype": "rival"}],
        "narrative_events": [
            {"id": "e1", "text_span": {"start": 0, "end": 11},
             "relationships": [{"agent": "Ann", "target": "Bo", "relationship_level1": "Social",
                                "relationship_level2": "friend", "sentiment": "positive"}],
             "action_layer": {"category": "Social", "type": "meet"}},
            {"id": "e2", "text_span": {"start": 12, "end": 23},
             "relationships": [{"agent": "Bo", "target": "Ann", "relationship_level1": "Conflict",
                                "relationship_level2": "enemy", "sentiment": "negative"}],
             "action_layer": {"category": "Physical", "type": "attack", "status": "success"}},
        ],
    }


def _prediction():
    return {
        "characters": [{"name": "ann", "archetype": "Hero"}, {"name": "Bobby", "archetype": "mentor"},
                       {"name": "Cy"}],
        "narrative_events": [
            {"id": "x", "text_span": {"start": 0, "end": 11},
             "relationships": [{"agent": "Ann", "target": "Bobby", "relationship_level1": "social",
                                "relationship_level2": "friend", "sentiment": ["positive"]}],
             "action_layer": {"category": "Social", "type": "greet"}},
        ],
    }


def test_evaluate_annotation_by_hand():
    result = evaluate_annotation(_prediction(), _gold())
    assert set(result) == {"overall_score", "component_scores", "detailed_results", "summary"}
    assert set(result["detailed_results"]) == {"characters", "relationships", "sentiment", "action_layer",
                                               "text_span"}
    scores = result["component_scores"]
    assert scores["characters"] == pytest.approx(0.8)  # P 2/3, R 1
    assert scores["relationships"] == pytest.approx(2 / 3)  # e1 right, e2 not predicted
    assert scores["sentiment"] == pytest.approx(2 / 3)
    assert scores["action_layer"] == pytest.approx(1 / 5)  # category of e1 only
    # gold cuts after sentences 1 and 2, prediction only after 1: one match, one deletion
    assert scores["text_span"] == pytest.approx(0.5)
    assert result["overall_score"] == pytest.approx((0.8 + 2 / 3 + 2 / 3 + 0.2 + 0.5) / 5)
    summary = result["summary"]
    assert (summary["total_events"], summary["aligned_by_span"], summary["missing_events"]) == (2, 1, 1)
    assert summary["correct_events"] == 0  # e1's action type is wrong, e2 was not predicted
    assert result["detailed_results"]["characters"]["character_archetype_accuracy"] == pytest.approx(0.5)


def test_perfect_prediction_scores_one_everywhere():
    result = evaluate_annotation(_gold(), _gold())
    assert result["overall_score"] == 1.0 and set(result["component_scores"].values()) == {1.0}
    assert result["summary"]["event_accuracy"] == 1.0 and result["summary"]["aligned_by_id"] == 2


def test_undefined_components_are_left_out_of_the_overall_score():
    gold = {"characters": [], "narrative_events": [{"id": "e1", "relationships": [], "action_layer": {},
                                                    "text_span": None}]}
    prediction = {"characters": [{"name": "A"}], "narrative_events": [
        {"id": "e1", "relationships": [{"agent": "A", "target": "B"}], "action_layer": {"category": "x"},
         "text_span": {"start": 0, "end": 3}}]}
    result = evaluate_annotation(prediction, gold, text="Abc.")
    assert set(result["component_scores"].values()) == {None} and result["overall_score"] is None
    assert result["summary"]["gt_incomplete"] == ["action_layer", "characters", "relationships", "text_span"]
    assert result["detailed_results"]["text_span"]["boundary_score"] is None


def test_overall_score_weights_are_renormalized_over_defined_components():
    scores = {"characters": 1.0, "relationships": 0.0, "sentiment": None, "action_layer": 0.5, "text_span": None}
    assert overall_score(scores) == pytest.approx(0.5)
    weights = {"characters": 2.0, "relationships": 1.0, "sentiment": 1.0, "action_layer": 1.0, "text_span": 1.0}
    assert overall_score(scores, weights) == pytest.approx(2.5 / 4)


def test_without_text_the_text_span_component_is_undefined():
    gold = _gold()
    del gold["source_info"]
    result = evaluate_annotation(_prediction(), gold)
    assert result["component_scores"]["text_span"] is None
    assert result["detailed_results"]["text_span"]["gt_incomplete_reason"] == "No story text to map spans onto"


def test_micro_and_macro_differ_as_computed_by_hand():
    first = evaluate_annotation({"characters": [{"name": "A"}]}, {"characters": [{"name": "A"}]})
    second = evaluate_annotation({"characters": [{"name": "B"}]},
                                 {"characters": [{"name": c} for c in "BCDEFGHIJ"]})  # P 1, R 1/9
    aggregate = aggregate_annotations([first, second])
    assert aggregate["macro"]["character_recall"] == pytest.approx((1 + 1 / 9) / 2)
    assert aggregate["micro"]["character_recall"] == pytest.approx(2 / 10)
    assert aggregate["micro"]["character_precision"] == 1.0
    assert aggregate["micro"]["relationship_f1"] is None and aggregate["documents"] == 2


@pytest.fixture
def taxonomy(tmp_path):
    (tmp_path / "relationship.csv").write_text(
        "\ufeff一级,二级\nSocial,friend\nSocial,mentor\nConflict,enemy\n", encoding="utf-8")
    (tmp_path / "sentiment.csv").write_text("label,极性\nLove,正面\nanger,negative\n", encoding="utf-8")
    (tmp_path / "actions.md").write_text(
        "# Taxonomy\n## Categories\n### Social\n- `meet`: two meet\n- greet — say hello\n### Physical\n"
        "- attack (strike)\n## Status\n- success\n- failure\n", encoding="utf-8")
    return {**load_relationship_taxonomy(tmp_path / "relationship.csv"),
            **load_sentiment_taxonomy(tmp_path / "sentiment.csv"), **load_action_taxonomy(tmp_path / "actions.md")}


def test_taxonomy_files_parse(taxonomy):
    assert taxonomy["relationship_level2"] == {"social": ["friend", "mentor"], "conflict": ["enemy"]}
    assert taxonomy["sentiment_polarity"] == {"love": "positive", "anger": "negative"}
    assert taxonomy["type"] == {"social": ["meet", "greet"], "physical": ["attack"]}
    assert taxonomy["status"] == ["failure", "success"] and "context" not in taxonomy


def test_invalid_labels_per_field(taxonomy):
    document = {"narrative_events": [
        {"relationships": [{"relationship_level1": "Social", "relationship_level2": "enemy", "sentiment": "love"},
                           {"relationship_level1": "Romance", "relationship_level2": "lover",
                            "sentiment": ["anger", "joy"]}],
         "action_layer": {"category": "Social", "type": "attack", "status": "success", "context": "duel"}},
    ]}
    counts = invalid_labels(document, taxonomy)
    assert counts["relationship_level1"] == {"predicted": 2, "invalid": 1, "labels": ["romance"]}
    assert counts["relationship_level2"] == {"predicted": 2, "invalid": 2, "labels": ["enemy", "lover"]}
    assert counts["sentiment"] == {"predicted": 3, "invalid": 1, "labels": ["joy"]}
    assert counts["type"]["invalid"] == 1  # attack is a Physical type, not a Social one
    assert counts["status"]["invalid"] == 0 and "context" not in counts


@pytest.mark.parametrize("document, problem", [
    ([], "expected a JSON object, got list"),
    ({"characters": "A, B"}, "characters must be a list, got str"),
    ({"characters": [{"name": 3}]}, "characters[0]: name and archetype must be text"),
    ({"narrative_events": [{"relationships": {}}]}, "narrative_events[0].relationships must be a list, got dict"),
    ({"narrative_events": [{"action_layer": "attack"}]}, "narrative_events[0].action_layer must be an object or null"),
    ({"narrative_events": [{"relationships": [{"sentiment": 1}]}]},
     "narrative_events[0].relationships[0].sentiment must be text or a list of text"),
    ({"narrative_events": [{"text_span": [0, 3]}]}, "narrative_events[0].text_span must be an object or null"),
])
def test_documents_with_wrong_types_are_described(document, problem):
    assert document_problem(document) == problem


def test_load_documents_sets_aside_broken_files(tmp_path):
    (tmp_path / "good.json").write_text(json.dumps({"characters": []}), encoding="utf-8")
    (tmp_path / "broken.json").write_text('{\n  "characters": [\n', encoding="utf-8")
    (tmp_path / "typed.json").write_text('{"narrative_events": 5}', encoding="utf-8")
    (tmp_path / "notes.txt").write_text("hello", encoding="utf-8")
    loaded = load_documents(tmp_path, "ground_truth")
    assert loaded.columns["id"] == ["good"] and loaded.counts() == {"input_rows": 4, "accepted": 1, "rejected": 3}
    reasons = {r.source.rsplit("/", 1)[-1]: (r.line, r.reason) for r in loaded.rejects}
    assert reasons["broken.json"][0] == 3 and reasons["broken.json"][1].startswith("not valid JSON")
    assert reasons["typed.json"] == (None, "wrong type: narrative_events must be a list, got int")
    assert reasons["notes.txt"] == (None, "not a .json document")
