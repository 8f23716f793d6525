"""Dataset folders from many people, tried as an attacker and an unlucky user would: a dataset.toml reads nothing
outside its folder, names never become paths outside their folder, and one dataset whose files cannot be read (a FIFO,
a device, a folder, JSON nested too deep, a name that is no name) is that dataset's PROBLEM while the others publish."""
import json
import os
from pathlib import Path

import pytest

from pipeline.cli import main
from stages.io.artifacts import read_artifact_json
from tests.pipeline.chat_server import ChatServer
from tests.pipeline.workspace import run, write_jsonl


def _generated(workspace: Path, server: ChatServer, generate: str) -> Path:
    folder = workspace / "inputs" / "asked"
    write_jsonl(folder / "questions.jsonl", [{"id": "1", "question": "Capital of France?", "answers": ["Paris"]},
                                             {"id": "2", "question": "Largest planet?", "answers": ["Jupiter"]}])
    (folder / "dataset.toml").write_text(
        f'[generate]\nprotocol = "openai"\nurl = "{server.url}"\nretries = 0\n{generate}', encoding="utf-8")
    return folder


@pytest.mark.parametrize(("generate", "message"), [
    ('models = ["m"]\nprompt_template_file = "../../../../../../../../etc/passwd"\n', "is outside the dataset folder"),
    ('models = ["m"]\nprompt_template_file = "/etc/passwd"\n', "is outside the dataset folder"),
    ('models = ["m"]\nprompt_template_file = "secret.txt"\n', "is outside the dataset folder"),  # a symlink out
    ('models = ["m"]\nprompt_template_file = "big.txt"\n', "at most 262,144 are read"),
    ('models = ["m"]\nprompt_template_file = "fifo.txt"\n', "is a FIFO, not a regular file"),
    ('models = ["m"]\nprompt_template = "Answer briefly."\n', "must use {question}"),
    ('models = ["../../../escaped"]\n', "is not a name"),
    ('models = ["../beta/m1"]\n', "is not a name"),
    ('models = ["Qwen/Qwen2.5-7B-Instruct"]\n', 'models = { "Qwen2.5-7B-Instruct" = "Qwen/Qwen2.5-7B-Instruct" }'),
])
def test_a_dataset_toml_reads_nothing_outside_its_folder_and_asks_nothing(workspace, generate, message, capsys):
    outside = workspace / "secret-outside.txt"
    outside.write_text("root:x:0:0 {question}")
    with ChatServer() as server:
        folder = _generated(workspace, server, generate)
        (folder / "secret.txt").symlink_to(outside)
        (folder / "big.txt").write_text("{question}" + "x" * (256 << 10))
        os.mkfifo(folder / "fifo.txt")
        assert run(workspace) == 1  # that dataset fails in one line; the others run
        err = capsys.readouterr().err
        problem = [line for line in err.splitlines() if line.startswith("PROBLEM asked: ")]
        assert len(problem) == 1 and message in problem[0], err
        assert server.requests == []
    assert not (workspace / "escaped").exists() and not (workspace / "outputs" / "asked").exists()


def test_a_prompt_template_file_inside_the_folder_is_read(workspace):
    with ChatServer() as server:
        folder = _generated(workspace, server, 'models = { qwen = "Qwen/Qwen2.5-7B-Instruct" }\n'
                                               'prompt_template_file = "prompts/ask.txt"\n')
        (folder / "prompts").mkdir()
        (folder / "prompts" / "ask.txt").write_text("Q: {question}\nA:")
        assert run(workspace) == 0
        asked = [r["body"] for r in server.requests]
    assert sorted(b["messages"][-1]["content"] for b in asked) == ["Q: Capital of France?\nA:",
                                                                    "Q: Largest planet?\nA:"]
    assert {b["model"] for b in asked} == {"Qwen/Qwen2.5-7B-Instruct"}  # the server's name is sent
    assert (workspace / "outputs/asked/qwen/B2_predictions.json").exists()  # evalpipe's name is the folder


@pytest.mark.parametrize("argv", [
    ["run", "--dataset", "../qa_small"], ["run", "--model", "../../x"], ["status", "--dataset=-x"],
    ["show", "B1", "--dataset", "../../etc"], ["show", "B4", "--dataset", "qa_small", "--model", "../alpha"],
])
def test_names_on_the_command_line_are_refused_in_one_line(workspace, argv, capsys):
    folders = ["--outputs", str(workspace / "outputs")] + (["--inputs", str(workspace / "inputs")]
                                                            if argv[0] != "show" else [])
    assert main([*argv, *folders]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "is not a name" in err, err


def _unreadable(inputs: Path) -> dict[str, str]:
    """Datasets whose files cannot be read, each in its own way, beside the workspace's good ones."""
    answers = [{"id": "q1", "prediction": "a"}]
    cases = {
        "fifo": "is a FIFO, not a regular file",
        "device": "is a character device, not a regular file",
        "folder": "is a folder, not a regular file",
        "named": "model name '-rf' is not a name",
        "rater": "rater name 'a b' is not a name",
    }
    for name in cases:
        write_jsonl(inputs / name / "predictions" / ("-rf.jsonl" if name == "named" else "m.jsonl"), answers)
    os.mkfifo(inputs / "fifo" / "questions.jsonl")
    (inputs / "device" / "questions.jsonl").symlink_to("/dev/zero")
    (inputs / "folder" / "questions.jsonl").mkdir()
    for name in ("named", "rater"):
        write_jsonl(inputs / name / "questions.jsonl", [{"id": "q1", "question": "x", "answers": ["a"]}])
    (inputs / "rater" / "labels").mkdir()
    (inputs / "rater" / "labels" / "a b.csv").write_text("id,model,correct\n")
    return cases


def test_a_dataset_whose_files_cannot_be_read_is_its_own_problem_and_the_others_publish(workspace, capsys):
    cases = _unreadable(workspace / "inputs")
    assert run(workspace) == 1
    err = capsys.readouterr().err
    for name, reason in cases.items():
        line = next(line for line in err.splitlines() if line.startswith(f"PROBLEM {name}:"))
        assert reason in line, line
    summary = read_artifact_json(workspace / "outputs/B6_summary.json")
    assert set(summary["failed"]) == set(cases)
    assert {row["dataset"] for row in summary["rows"]} == {"qa_small", "claims"}  # the others published
    assert "fifo" in (workspace / "outputs/report.html").read_text()


def test_json_nested_too_deep_is_a_reject_with_its_line_not_a_crash(workspace, capsys):
    deep = 20_000
    folder = workspace / "inputs" / "deep"
    (folder / "predictions").mkdir(parents=True)
    (folder / "questions.jsonl").write_text(
        json.dumps({"id": "q1", "question": "x", "answers": ["Paris"]}) + "\n"
        + '{"id": "q2", "question": "y", "answers": ' + "[" * deep + "]" * deep + "}\n"
        + json.dumps({"id": "q3", "question": "z", "answers": ["Rome"]}) + "\n")
    write_jsonl(folder / "predictions" / "m.jsonl", [{"id": "q1", "prediction": "Paris"},
                                                     {"id": "q3", "prediction": "Rome"}])
    whole = workspace / "inputs" / "deep_json"
    (whole / "predictions").mkdir(parents=True)
    (whole / "questions.json").write_text("[" * 100_000 + "]" * 100_000)
    write_jsonl(whole / "predictions" / "m.jsonl", [{"id": "q1", "prediction": "a"}])
    assert run(workspace) == 1  # deep_json has nothing left to score
    rejects = read_artifact_json(workspace / "outputs/deep/B1_questions.json")["rejects"]
    assert rejects == [{"source": str(folder / "questions.jsonl"), "line": 2,
                        "reason": "JSON nested deeper than 500 levels"}]
    report = read_artifact_json(workspace / "outputs/deep/B6_report.json")["report"]
    assert report["models"]["m"]["exact_match"] == 1.0
    assert "PROBLEM deep_json: no question to score" in capsys.readouterr().err


def test_a_file_the_run_may_not_read_is_its_datasets_problem(workspace, capsys, monkeypatch):
    import stages.kinds.dataset_kind

    locked = workspace / "inputs" / "locked"
    write_jsonl(locked / "questions.jsonl", [{"id": "q1", "question": "x", "answers": ["a"]}])
    write_jsonl(locked / "predictions" / "m.jsonl", [{"id": "q1", "prediction": "a"}])
    detect = stages.kinds.dataset_kind.detect_kind

    def unreadable(name, path):  # as root, chmod 000 does not stop a read: refuse it as the kernel would
        if name == "locked":
            raise PermissionError(13, "Permission denied", str(path))
        return detect(name, path)

    monkeypatch.setattr(stages.kinds.dataset_kind, "detect_kind", unreadable)
    assert run(workspace) == 1
    err = capsys.readouterr().err
    assert f"PROBLEM locked: its inputs cannot be read: {locked / 'questions.jsonl'}: Permission denied" in err, err
    assert set(read_artifact_json(workspace / "outputs/B6_summary.json")["failed"]) == {"locked"}
