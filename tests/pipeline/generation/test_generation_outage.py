"""An outage is not a score (#78): a model server killed mid-run leaves the items it never answered not scored — out
of the denominator, never wrong —, the model unpublished (its row says why, the nightly records no value for it),
the run exits 1 and its last line says what to do; a rerun once the server is back asks only what is missing."""
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from pipeline.cli import main
from stages.io.artifacts import read_artifact_json
from tests.pipeline.chat_server import ChatServer
from tests.pipeline.workspace import run, write_jsonl

QUESTIONS = [{"id": f"q{i}", "question": f"What is {i} + {i}?", "answers": [str(2 * i)]} for i in range(10)]
WHAT_TO_DO = ("evalpipe: what to do: restart the model server and rerun `evalpipe {command}`: the journal asks only "
              "what is missing")


def _right_on_even(message: str) -> str:
    """q0, q2, … answered right, the others wrong."""
    number = int(message.split("What is ")[1].split(" ")[0])
    return str(2 * number) if number % 2 == 0 else "no idea"


def _dataset(tmp_path: Path, url: str, share: float | None = None, with_file: bool = False) -> Path:
    """inputs/sums: ten questions asked live of model m (one request at a time, the breaker after 3 failures), and
    model f's prediction file when `with_file`."""
    folder = tmp_path / "inputs" / "sums"
    write_jsonl(folder / "questions.jsonl", QUESTIONS)
    if with_file:
        write_jsonl(folder / "predictions" / "f.jsonl", [{"id": q["id"], "prediction": q["answers"][0]}
                                                         for q in QUESTIONS])
    limit = "" if share is None else f"max_unscored_share = {share}\n"
    (folder / "dataset.toml").write_text(
        f'kind = "qa"\n{limit}[generate]\nurl = "{url}"\nmodels = ["m"]\ntimeout = 2\nretries = 0\n'
        "concurrency = 1\ncircuit_breaker = 3\n", encoding="utf-8")
    return tmp_path


def _row(workspace: Path, model: str = "m") -> dict:
    summary = read_artifact_json(workspace / "outputs" / "B6_summary.json")
    return next(row for row in summary["rows"] if row["model"] == model)


def test_a_server_killed_mid_run_publishes_nothing_and_a_rerun_asks_only_what_is_missing(tmp_path, capsys,
                                                                                         killed_server):
    workspace = _dataset(tmp_path, killed_server(4, answer=_right_on_even).url)
    assert run(workspace) == 1
    err = capsys.readouterr().err
    line = ("6 of 10 items not scored: the model server did not answer (connection refused) × 3, the model server did "
            "not answer (circuit open after 3 consecutive failures) × 3")
    assert f"PROBLEM sums: model m: not published: {line} (share 0.6 > max_unscored_share 0.02)" in err
    assert err.splitlines()[-1] == WHAT_TO_DO.format(command="run")
    row = _row(workspace)
    assert row["value"] is None and row["published"] is False and row["not_scored"] == line
    b5 = read_artifact_json(workspace / "outputs/sums/m/B5_component_scores.json")["metrics"]
    assert b5["rows"] == 4 and b5.get("missing", 0) == 0  # the 6 never answered are not counted wrong
    assert b5["exact_match"] == pytest.approx(2 / 4)
    page = (workspace / "outputs" / "report.html").read_text(encoding="utf-8")
    assert "<td>m (not published)</td>" in page and "not published: 6 of 10 items not scored" in page

    with ChatServer() as back:
        back.answer = _right_on_even
        _dataset(tmp_path, back.url)
        assert run(workspace) == 0
        asked = [chat["body"]["messages"][-1]["content"].split("Question: ")[1].split("\n")[0]
                 for chat in back.chats()]
    assert sorted(asked) == sorted(q["question"] for q in QUESTIONS[4:])  # only what was missing
    row = _row(workspace)
    assert row["value"] == pytest.approx(5 / 10) and "published" not in row and "not_scored" not in row


def test_a_share_within_the_limit_publishes_over_the_items_answered_and_names_the_rest(tmp_path, capsys,
                                                                                       killed_server):
    workspace = _dataset(tmp_path, killed_server(9, answer=_right_on_even).url, share=0.1)
    assert run(workspace) == 0
    err = capsys.readouterr().err
    line = "1 of 10 items not scored: the model server did not answer (connection refused) × 1"
    assert f"evalpipe: sums / m: {line} (out of its denominator, never counted wrong)" in err
    row = _row(workspace)
    assert row["value"] == pytest.approx(5 / 9) and row["published"] is True and row["not_scored"] == line
    assert row["rows"] == 9


def test_the_nightly_records_no_value_for_a_model_not_published(tmp_path, capsys, killed_server):
    workspace = _dataset(tmp_path, killed_server(4, answer=_right_on_even).url, with_file=True)
    night = ["nightly", "--inputs", str(workspace / "inputs"), "--outputs", str(workspace / "outputs"),
             "--date", "2026-11-20"]
    assert main(night) == 1
    assert capsys.readouterr().err.splitlines()[-1] == WHAT_TO_DO.format(command="nightly")
    history = pq.read_table(workspace / "outputs/nightly/history.parquet").to_pylist()
    assert {row["model"] for row in history} == {"f"}  # the file's model is published, m is not
    items = pq.read_table(workspace / "outputs/nightly/2026-11-20/item_scores.parquet").to_pylist()
    assert {row["model"] for row in items} == {"f"}

    with ChatServer() as back:
        back.answer = _right_on_even
        _dataset(tmp_path, back.url, with_file=True)
        assert main(night) == 0
        assert len(back.chats()) == 6
    history = pq.read_table(workspace / "outputs/nightly/history.parquet").to_pylist()
    primary = {row["model"]: row["value"] for row in history if row["primary"]}
    assert primary == {"f": 1.0, "m": pytest.approx(0.5)}


def test_max_unscored_share_must_be_a_share(tmp_path, capsys):
    workspace = _dataset(tmp_path, "http://127.0.0.1:9", share=2)
    assert run(workspace) == 1
    assert "max_unscored_share = 2 " in capsys.readouterr().err


def test_an_item_of_several_replies_never_answered_is_out_of_avg_pass_and_maj(tmp_path):
    """Three items × 2 replies, item b never answered (ALWAYS500): avg@2, pass@k and maj@k over a and c alone."""
    folder = tmp_path / "inputs" / "s"
    write_jsonl(folder / "questions.jsonl", [{"id": "a", "question": "A?", "answers": ["x"]},
                                             {"id": "b", "question": "ALWAYS500 B?", "answers": ["y"]},
                                             {"id": "c", "question": "C?", "answers": ["z"]}])
    with ChatServer() as server:
        server.answer = lambda message: "x" if "A?" in message else "no"
        (folder / "dataset.toml").write_text(
            f'kind = "qa"\nmax_unscored_share = 0.5\n[generate]\nurl = "{server.url}"\nmodels = ["m"]\nretries = 0\n'
            "samples = 2\nseed = 1\n", encoding="utf-8")
        assert run(tmp_path) == 0
    report = read_artifact_json(tmp_path / "outputs/s/B6_report.json")["report"]
    assert report["models"]["m"]["exact_match"] == pytest.approx(0.5) and report["models"]["m"]["rows"] == 4
    samples = report["samples"]["m"]
    assert samples["items"] == 2 and samples["avg"]["exact_match"]["value"] == pytest.approx(0.5)
    assert samples["pass"]["2"]["value"] == pytest.approx(0.5) and samples["maj"]["1"] == pytest.approx(0.5)
    assert samples["short_items"]["count"] == 0
    assert report["unscored"]["m"]["ids"] == ["b"]
