"""The six stages and the artifact each one writes."""

ARTIFACT_NAMES = {"B1": "B1_questions.json", "B2": "B2_predictions.json", "B3": "B3_normalized.json",
                  "B4": "B4_matches.json", "B5": "B5_component_scores.json", "B5J": "B5_judge.json",
                  "B5P": "B5_pairwise.json", "B5L": "B5_leaderboard.json", "B6": "B6_report.json"}
STAGES = tuple(ARTIFACT_NAMES)
MODEL_STAGES = ("B2", "B3", "B4", "B5", "B5J", "B5L")  # one artifact per model; B1, B5P and B6 have one per dataset
# B5J: model-graded criteria ([judge] criteria); B5P: model against model, judged pairwise ([judge] pairwise = true);
# B5L: a model against a leaderboard's baseline by its recorded verdicts ([leaderboard])
