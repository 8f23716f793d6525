"""Imported runs written as dataset folders, all or nothing: questions, predictions per model, dataset.toml with the
kind, fields and provenance; a second import of the same runs changes no file; disagreeing runs stop the import."""
import json
import tomllib

import pytest

from stages.harness.dataset_folder import plan_import, write_planned
from stages.harness.imported import ImportedRun

QUESTIONS = [{"id": "1", "question": "Capital of France?", "answers": ["Paris"]},
             {"id": "2", "question": "2+2?", "answers": ["4"]}]


def _run(model="org/model-7b", predictions=("Paris", "4"), questions=QUESTIONS, kind="qa", **more):
    return ImportedRun(tool="lm-eval", tool_version="0.4.13", task="squad local", model=model, file=f"{model}.jsonl",
                       kind=kind, questions=list(questions),
                       predictions=[{"id": q["id"], "prediction": p} for q, p in zip(questions, predictions)],
                       metrics={"exact_match": 1.0}, **more)


def test_runs_become_a_dataset_folder_and_a_second_import_changes_nothing(tmp_path):
    verdicts = [{"id": "1", "verdicts": {"exact_match": 1.0}, "answers": {"none": "Paris"}}]
    plan = plan_import([_run(verdicts=verdicts), _run(model="other", predictions=("Lyon", "4"))], tmp_path)
    assert plan.problems == []
    write_planned(plan)
    folder = tmp_path / "squad_local"
    assert [json.loads(line) for line in (folder / "questions.jsonl").read_text().splitlines()] == QUESTIONS
    assert sorted(p.name for p in (folder / "predictions").iterdir()) == ["org_model-7b.jsonl", "other.jsonl"]
    config = tomllib.loads((folder / "dataset.toml").read_text())
    assert (config["kind"], config["gold_field"]) == ("qa", "answers")
    assert config["provenance"]["org_model-7b"] == {"tool": "lm-eval", "version": "0.4.13", "task": "squad local",
                                                    "model": "org/model-7b", "file": "org/model-7b.jsonl",
                                                    "metrics": {"exact_match": 1.0},
                                                    "verdicts": "harness/org_model-7b.jsonl"}
    assert (folder / "harness" / "org_model-7b.jsonl").is_file()
    again = plan_import([_run(verdicts=verdicts), _run(model="other", predictions=("Lyon", "4"))], tmp_path)
    assert again.writes == {} and {o.questions for o in again.outcomes} == {"unchanged"}
    assert {o.config for o in again.outcomes} == {"unchanged"}


def test_disagreeing_runs_stop_the_import_before_any_file_is_written(tmp_path):
    other_questions = [{**QUESTIONS[0], "answers": ["Paris, France"]}, QUESTIONS[1]]
    plan = plan_import([_run(), _run(model="b", questions=other_questions)], tmp_path)
    assert len(plan.problems) == 1 and "holds other questions than org/model-7b.jsonl (1 differ, first id '1')" in \
        plan.problems[0]
    twice = plan_import([_run(), _run(predictions=("Lyon", "5"))], tmp_path)
    assert "model 'org_model-7b' twice with other answers" in twice.problems[0]
    empty = plan_import([_run(questions=[], set_aside=["f.jsonl:3: no gold"])], tmp_path)
    assert empty.problems == ["org/model-7b.jsonl: no usable row (1 set aside; first: f.jsonl:3: no gold)"]
    with pytest.raises(ValueError):
        write_planned(plan)
    assert not (tmp_path / "squad_local").exists()


def test_a_folder_of_another_kind_is_not_imported_into(tmp_path):
    write_planned(plan_import([_run()], tmp_path, dataset="d"))
    choice = [{"id": "1", "question": "q", "options": ["a", "b"], "answer": "A"}]
    plan = plan_import([_run(kind="multiple_choice", questions=choice, predictions=("A",))], tmp_path, dataset="d")
    assert plan.problems == [f"{tmp_path / 'd' / 'dataset.toml'}: kind 'qa', but org/model-7b.jsonl is "
                             "'multiple_choice'; import into another --dataset"]
