"""A GPQA CSV with four replies per item (written for the purpose) through `evalpipe run` as `task = "gpqa"`: every
reply's gold letter, letter and verdict equal simple-evals' GPQAEval's on the same replies (fixture made by
tests/stages/kinds/multiple_choice/make_gpqa_fixtures.py running it), the accuracy its score, averaged over the
repeats with the interval over items."""
import json
import shutil
from pathlib import Path

import pytest

from pipeline.cli import main
from stages.io.artifacts import read_artifact_json, read_columns

FIXTURES = Path(__file__).parents[2] / "stages" / "kinds" / "multiple_choice" / "fixtures" / "gpqa"
TOML = """kind = "multiple_choice"
task = "gpqa"
id_field = "Record ID"
question_field = "Question"
gold_field = "Correct Answer"
"""


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    root = tmp_path_factory.mktemp("gpqa")
    shutil.copytree(FIXTURES, root / "inputs" / "gpqa", ignore=shutil.ignore_patterns("expected.json"))
    (root / "inputs" / "gpqa" / "dataset.toml").write_text(TOML)
    assert main(["run", "--inputs", str(root / "inputs"), "--outputs", str(root / "outputs")]) == 0
    return root / "outputs" / "gpqa"


def test_every_reply_is_scored_as_the_script_scored_it(scored):
    expected = json.loads((FIXTURES / "expected.json").read_text(encoding="utf-8"))
    matched = read_columns(scored / "written" / "B4_matches.json")
    rows = {(item, sample): (gold, letter, correct) for item, sample, gold, letter, correct in zip(
        matched["id"], matched["sample"], matched["shown_gold"], matched["read"], matched["correct"])}
    assert rows == {(item, repeat): (found["correct"], found["extracted"], bool(found["score"]))
                    for item, repeats in expected["items"].items() for repeat, found in enumerate(repeats)}
    first = matched["id"].index("rec3")  # shown as options C, D, A, B: its 'answer: C' picks option A, the right one
    assert (matched["read"][first], matched["letter"][first], matched["gold_letter"][first]) == ("C", "A", "A")
    report = read_artifact_json(scored / "B6_report.json")["report"]
    samples = report["samples"]["written"]
    assert (samples["n"], samples["items"], samples["replies"]) == (4, 5, 20)
    assert samples["avg"]["accuracy"]["value"] == pytest.approx(expected["score"])
    low, high = samples["avg"]["accuracy"]["low"], samples["avg"]["accuracy"]["high"]
    assert low < expected["score"] < high


def test_an_item_without_four_options_is_set_aside_in_b1(tmp_path):
    folder = tmp_path / "inputs" / "gpqa"
    shutil.copytree(FIXTURES, folder, ignore=shutil.ignore_patterns("expected.json"))
    (folder / "dataset.toml").write_text(TOML)
    with open(folder / "questions.csv", "a", encoding="utf-8") as handle:
        handle.write("rec6,Two options only?,yes,no,,,Physics\n")
    assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")]) == 0
    questions = read_artifact_json(tmp_path / "outputs" / "gpqa" / "B1_questions.json")
    assert [(reject["line"], reject["reason"]) for reject in questions["rejects"]] == [(8, "2 options; task 'gpqa' "
                                                                                          "takes 4")]
    assert "rec6" not in read_columns(tmp_path / "outputs" / "gpqa" / "B1_questions.json", questions)["id"]


def test_an_unknown_task_is_a_problem_of_the_dataset_naming_the_known_ones(tmp_path, capsys):
    folder = tmp_path / "inputs" / "gpqa"
    shutil.copytree(FIXTURES, folder, ignore=shutil.ignore_patterns("expected.json"))
    (folder / "dataset.toml").write_text(TOML.replace('task = "gpqa"', 'task = "gpqa_diamond"'))
    assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")]) == 1
    assert "task = 'gpqa_diamond' is none of the multiple-choice tasks (gpqa, mmlu_pro)" in capsys.readouterr().err


def test_asked_live_each_repeat_gets_the_scripts_shuffled_prompt(tmp_path):
    from tests.pipeline.chat_server import ChatServer

    expected = json.loads((FIXTURES / "expected.json").read_text(encoding="utf-8"))["items"]
    folder = tmp_path / "inputs" / "gpqa"
    folder.mkdir(parents=True)
    shutil.copy(FIXTURES / "questions.csv", folder / "questions.csv")
    rights = {found["prompt"]: found["correct"] for repeats in expected.values() for found in repeats}
    with ChatServer() as server:
        server.answer = lambda message: f"Thinking.\nAnswer: {rights[message]}"
        (folder / "dataset.toml").write_text(TOML + f'[generate]\nurl = "{server.url}"\nmodels = ["m"]\nsamples = 4\n'
                                                    "timeout = 5\nretries = 0\n")
        assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")]) == 0
        asked = [chat["body"]["messages"][-1]["content"] for chat in server.chats()]
    assert sorted(asked) == sorted(rights)  # 20 requests, one per item and repeat, each its own order
    matched = read_columns(tmp_path / "outputs" / "gpqa" / "m" / "B4_matches.json")
    assert all(matched["correct"]) and set(matched["letter"]) == {"A"} and len(matched["id"]) == 20


def test_more_samples_than_repeats_is_refused(tmp_path, capsys):
    folder = tmp_path / "inputs" / "gpqa"
    folder.mkdir(parents=True)
    shutil.copy(FIXTURES / "questions.csv", folder / "questions.csv")
    (folder / "dataset.toml").write_text(TOML + '[generate]\nurl = "http://127.0.0.1:9"\nmodels = ["m"]\nsamples = 5\n')
    assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")]) != 0
    assert "[generate] samples = 5, but item 'rec1' has 4 prompts, one per repeat" in capsys.readouterr().err
