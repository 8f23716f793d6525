"""MMLU-Pro's published results files import as multiple-choice datasets of task "mmlu_pro" and score as the
repository's evaluate_from_local.py scores them: every letter and each model's accuracy per category equal to the
script's own (fixture made by tests/stages/kinds/multiple_choice/make_mmlu_pro_fixtures.py running it)."""
import json
import random
from pathlib import Path

import pytest

from stages.io.artifacts import read_artifact_json, read_columns
from tests.pipeline.harness.imports import import_files, model_metrics, run_imported
from tests.stages.harness.conformance_files import conformance, written_files

PUBLISHED = Path(__file__).parents[2] / "stages" / "kinds" / "multiple_choice" / "fixtures" / \
    "mmlu_pro_published_files.json"


def test_a_results_file_imports_and_scores_with_the_scripts_guess_beside_the_figure_without(tmp_path, capsys):
    [tiny] = written_files(conformance("mmlu-pro"), tmp_path / "written")  # model_outputs_Tiny-Model_5shots.json
    assert import_files(tmp_path, "mmlu-pro", tiny) == 0
    assert "item 4: answer 'D' is not one of its 2 option letters" in capsys.readouterr().err
    outputs = run_imported(tmp_path)
    metrics = model_metrics(outputs, "mmlu_pro", "Tiny-Model")
    draw = random.Random(12345)
    draw.randint(0, 1)  # the first of eval_cot's two save_res calls for "other", discarded
    lucky = draw.randint(0, 1) == 0  # the unclosed reasoning of item 72 has no answer: guessed against index 0
    assert (metrics["rows"], metrics["guessed"], metrics["guessed_correct"]) == (3, 1, int(lucky))
    assert metrics["accuracy"] == pytest.approx((2 + lucky) / 3)
    assert metrics["accuracy_without_guesses"] == pytest.approx(2 / 3)
    assert metrics["per_category"]["other"] == {"rows": 1, "accuracy": float(lucky), "accuracy_without_guesses": 0.0}
    matched = read_columns(outputs / "mmlu_pro" / "Tiny-Model" / "B4_matches.json")
    assert matched["letter"] == ["C", "B", None] and matched["rule"] == ["answer is", "answer:", None]
    assert matched["guess"][:2] == [None, None] and matched["guess"][2] in ("A", "B")
    assert "without guesses" in capsys.readouterr().out


def test_files_of_two_revisions_of_the_test_set_are_not_imported_into_one_dataset(tmp_path, capsys, real_data):
    assert import_files(tmp_path, "mmlu-pro", real_data / "mmlu_pro") == 2  # the Llama-3.1 files' 14 questions differ
    assert "holds other questions" in capsys.readouterr().err and not (tmp_path / "inputs").exists()


@pytest.fixture(scope="module")
def published(tmp_path_factory, real_data):
    """The five published files imported, each into its own dataset (two revisions of the test set), run once."""
    root = tmp_path_factory.mktemp("mmlu_pro_import")
    for name in json.loads(PUBLISHED.read_text(encoding="utf-8")):
        assert import_files(root, "mmlu-pro", real_data / "mmlu_pro" / name, "--dataset", _dataset(name)) == 0
    return run_imported(root)


def _dataset(name: str) -> str:
    return "mmlu_pro_" + name.removeprefix("model_outputs_").split("-")[0].split("_")[0].lower() + str(len(name))


@pytest.mark.parametrize("name", sorted(json.loads(PUBLISHED.read_text(encoding="utf-8"))))
def test_each_published_file_scores_as_the_script_scores_it(published, name):
    expected = json.loads(PUBLISHED.read_text(encoding="utf-8"))[name]
    model = name.removeprefix("model_outputs_").removesuffix("_5shots.zip")
    matched = read_columns(published / _dataset(name) / model / "B4_matches.json")
    assert "".join(letter or "-" for letter in matched["letter"]) == expected["letters"]
    metrics = model_metrics(published, _dataset(name), model)
    assert metrics["accuracy"] == pytest.approx(expected["accuracy"], abs=1e-6)  # the script's + 0.000001
    for category, (right, wrong) in expected["per_category"].items():
        figures = metrics["per_category"][category]
        assert figures["rows"] == right + wrong and figures["accuracy"] == pytest.approx(right / (right + wrong))
    report = read_artifact_json(published / _dataset(name) / "B6_report.json")
    assert report["report"]["models"][model]["per_category"] == metrics["per_category"]
