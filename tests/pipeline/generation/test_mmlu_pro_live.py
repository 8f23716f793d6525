"""A dataset of task "mmlu_pro" with its validation split as `fewshot_file`, asked live: each question goes to the
model as the script's 5-shot prompt of its category (fixture made by make_mmlu_pro_fixtures.py running
generate_cot_prompt), and the reply is read by the script's cascade."""
import json
import shutil
from pathlib import Path

from stages.io.artifacts import read_columns
from tests.pipeline.chat_server import ChatServer
from tests.pipeline.workspace import run

LIVE = Path(__file__).parents[2] / "stages" / "kinds" / "multiple_choice" / "fixtures" / "mmlu_pro_live"


def test_each_question_is_asked_with_its_categorys_five_shot_prompt(tmp_path):
    folder = tmp_path / "inputs" / "mmlu_pro"
    shutil.copytree(LIVE, folder, ignore=shutil.ignore_patterns("prompts.json"))
    with ChatServer() as server:
        server.answer = lambda message: "Step by step: 7 × 6 = 42. The answer is (C)." if "7 × 6" in message \
            else "<think>a minor may not, alone"
        (folder / "dataset.toml").write_text(
            f'kind = "multiple_choice"\ntask = "mmlu_pro"\n[params]\nfewshot_file = "validation.jsonl"\n'
            f'[generate]\nprotocol = "openai"\nurl = "{server.url}"\nmodels = ["m"]\ntimeout = 5\nretries = 0\n')
        assert run(tmp_path) == 0
        asked = {chat["body"]["messages"][-1]["content"] for chat in server.chats()}
    assert asked == set(json.loads((LIVE / "prompts.json").read_text(encoding="utf-8")).values())
    matched = read_columns(tmp_path / "outputs" / "mmlu_pro" / "m" / "B4_matches.json")
    assert dict(zip(matched["id"], matched["letter"])) == {"m1": "C", "l1": None}  # unclosed reasoning: no answer
    assert matched["guess"][matched["id"].index("l1")] in ("A", "B", "C")


def test_a_fewshot_file_without_the_task_is_refused(tmp_path, capsys):
    folder = tmp_path / "inputs" / "mmlu_pro"
    shutil.copytree(LIVE, folder, ignore=shutil.ignore_patterns("prompts.json"))
    (folder / "dataset.toml").write_text('kind = "multiple_choice"\n[params]\nfewshot_file = "validation.jsonl"\n')
    (folder / "predictions").mkdir()
    (folder / "predictions" / "m.jsonl").write_text('{"id": "m1", "prediction": "C"}\n')
    assert run(tmp_path) != 0
    assert 'fewshot_file is for task = "mmlu_pro"' in capsys.readouterr().err
