"""`task = "livecodebench"` from dataset.toml through B1 → B6: the date window and the malicious row set aside with
their lines, pass@1 and per-difficulty figures equal to lcb_runner's on the same replies (reference.json)."""
import json
import shutil
from pathlib import Path

import pytest

from stages.io.artifacts import read_artifact_json
from tests.pipeline.workspace import run

FIXTURE = Path(__file__).parents[2] / "stages" / "kinds" / "code" / "livecodebench"
REFERENCE = json.loads((FIXTURE / "reference.json").read_text())


def test_a_livecodebench_dataset_runs_b1_to_b6_as_lcb_runner_scores_it(tmp_path, bwrap, capsys):
    folder = tmp_path / "inputs" / "lcb"
    (folder / "predictions").mkdir(parents=True)
    shutil.copy(FIXTURE / "questions.jsonl", folder / "questions.jsonl")
    shutil.copy(FIXTURE / "predictions.jsonl", folder / "predictions" / "m.jsonl")
    (folder / "dataset.toml").write_text('kind = "code"\ntask = "livecodebench"\nquestion_field = "question_content"\n'
                                         '\n[params]\nstart_date = "2024-08-01"\nparallel = 2\n')
    assert run(tmp_path) == 0
    report = read_artifact_json(tmp_path / "outputs" / "lcb" / "B6_report.json")["report"]
    metrics = report["models"]["m"]
    assert metrics["pass_at_1"] == pytest.approx(REFERENCE["pass_at_k"]["pass@1"], abs=1e-12)
    assert {level: figures["problems"] for level, figures in metrics["per_difficulty"].items()} == {
        "easy": 1, "medium": 1, "hard": 1}
    assert metrics["unfinished_reasoning"] == 1
    questions = read_artifact_json(tmp_path / "outputs" / "lcb" / "B1_questions.json")
    assert questions["row_count"] == 3 and [(r["line"], r["reason"]) for r in questions["rejects"]] == [
        (4, "contest_date 2023-01-07T00:00:00 is before start_date 2024-08-01"),
        (5, "private_test_cases: the pickle names a global (os.system); only plain data is read")]
    assert "easy" in (tmp_path / "outputs" / "lcb" / "B6_report.txt").read_text()


def _live_folder(tmp_path, url: str, system_line: str = "") -> Path:
    folder = tmp_path / "inputs" / "lcb"
    folder.mkdir(parents=True)
    rows = [(FIXTURE / name).read_text(encoding="utf-8") for name in ("questions.jsonl", "prompt_rows.jsonl")]
    (folder / "questions.jsonl").write_text("".join(rows), encoding="utf-8")
    (folder / "dataset.toml").write_text('kind = "code"\ntask = "livecodebench"\nquestion_field = "question_content"\n'
                                         f'\n[generate]\nurl = "{url}"\nmodels = ["m"]\ntimeout = 5\nretries = 0\n'
                                         f"{system_line}")
    return folder


def test_asked_live_each_item_gets_lcb_runners_messages_byte_for_byte(tmp_path, bwrap):
    from tests.pipeline.chat_server import ChatServer

    asked_prompts = json.loads((FIXTURE / "reference_prompts.json").read_text(encoding="utf-8"))
    with ChatServer() as server:
        server.answer = lambda message: "```python\nprint(int(input()) * 2)\n```" if "doubled" in message else "No."
        _live_folder(tmp_path, server.url)
        assert run(tmp_path) == 0
        sent = {chat["body"]["messages"][-1]["content"]: chat["body"]["messages"] for chat in server.chats()}
    assert sorted(sent.values(), key=str) == sorted(asked_prompts.values(), key=str)  # the os.system row set aside
    report = read_artifact_json(tmp_path / "outputs" / "lcb" / "B6_report.json")["report"]
    assert report["models"]["m"]["pass_at_1"] == pytest.approx(1 / 6)  # abc901_a's doubling program passes


def test_a_generate_system_prompt_replaces_lcb_runners(tmp_path, bwrap):
    from tests.pipeline.chat_server import ChatServer

    with ChatServer() as server:
        _live_folder(tmp_path, server.url, 'system_prompt = "Be brief."\n')
        assert run(tmp_path) == 0
        systems = {chat["body"]["messages"][0]["content"] for chat in server.chats()}
    assert systems == {"Be brief."}
