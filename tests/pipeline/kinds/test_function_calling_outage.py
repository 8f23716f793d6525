"""An outage is not a score (#78) for BFCL: items asked live that a killed server never answered, and multi-turn
items that cannot run without bfcl-eval, are not scored — never wrong — and keep the model from being published,
the last line saying what to do (restart and rerun, or the install command)."""
import json
import shutil

import pytest

from stages.io.artifacts import read_artifact_json
from stages.kinds.function_calling import files
from stages.kinds.function_calling.episodes import INSTALL
from tests.pipeline.chat_server import ChatServer
from tests.pipeline.kinds.test_function_calling_generation import FIXTURE, _tool_calls
from tests.pipeline.workspace import REPO, run, write_jsonl

PREDICTIONS = REPO / "tests" / "stages" / "kinds" / "function_calling" / "conformance" / "predictions"
MULTI_TURN = {"id": "multi_turn_base_0", "question": [[{"role": "user", "content": "List the files."}]],
              "initial_config": {}, "involved_classes": ["GorillaFileSystem"], "ground_truth": [["ls()"]]}


def _live(tmp_path, url):
    folder = tmp_path / "inputs" / "tools"
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(FIXTURE, folder / "questions.jsonl")
    (folder / "dataset.toml").write_text(
        f'kind = "function_calling"\n[generate]\nprotocol = "openai"\nurl = "{url}"\nmodels = ["m"]\n'
        "timeout = 2\nretries = 0\nconcurrency = 1\n")


def _summary_row(tmp_path):
    return read_artifact_json(tmp_path / "outputs" / "B6_summary.json")["rows"][0]


def test_a_server_killed_mid_run_leaves_its_items_not_scored_until_a_rerun_asks_them(tmp_path, capsys, killed_server):
    _live(tmp_path, killed_server(2, tool_calls=_tool_calls).url)
    assert run(tmp_path) == 1
    err = capsys.readouterr().err
    assert ("model m: not published: 2 of 4 items not scored: the model server did not answer (connection refused)"
            " × 2 (share 0.5 > max_unscored_share 0.02)") in err
    assert err.splitlines()[-1] == ("evalpipe: what to do: restart the model server and rerun `evalpipe run`: the "
                                    "journal asks only what is missing")
    assert _summary_row(tmp_path)["value"] is None
    b5 = read_artifact_json(tmp_path / "outputs" / "tools" / "m" / "B5_component_scores.json")["metrics"]
    assert b5["rows"] == 2  # the two answered; the others are out of the denominator, not wrong

    with ChatServer() as back:
        back.tool_calls = _tool_calls
        _live(tmp_path, back.url)
        assert run(tmp_path) == 0
        assert len(back.chats()) == 2  # only the two never answered
    # simple_python_0, simple_java_0 and irrelevance_0 right, parallel_0 wrong (radius 4, not 3)
    assert _summary_row(tmp_path)["value"] == pytest.approx(3 / 4)


def test_multi_turn_items_without_bfcl_eval_are_not_scored_and_the_refusal_names_the_command(tmp_path, capsys,
                                                                                           monkeypatch):
    monkeypatch.setattr(files, "mock_apis_missing", lambda: f"multi-turn episodes run against bfcl-eval's mock "
                                                            f"APIs: `{INSTALL}`")
    folder = tmp_path / "inputs" / "tools"
    write_jsonl(folder / "questions.jsonl", [*map(json.loads, FIXTURE.read_text().splitlines()), MULTI_TURN])
    (folder / "predictions").mkdir()
    shutil.copy(PREDICTIONS / "function-calling.jsonl", folder / "predictions" / "fc.jsonl")
    (folder / "dataset.toml").write_text('kind = "function_calling"\n')
    assert run(tmp_path) == 1
    err = capsys.readouterr().err
    assert ("model fc: not published: 1 of 5 items not scored: bfcl-eval (BFCL's mock APIs, which multi-turn items "
            f"run against) is not installed (`{INSTALL}`) × 1 (share 0.2 > max_unscored_share 0.02)") in err
    assert err.splitlines()[-1] == f"evalpipe: what to do: install what is missing (`{INSTALL}`) and rerun `evalpipe run`"
    row = _summary_row(tmp_path)
    assert row["value"] is None and row["published"] is False
    assert "question(s) set aside" not in err and "max_rejected_share" not in err  # said once, as not scored


def test_a_part_missing_from_a_few_items_within_the_limit_publishes_over_the_rest(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(files, "mock_apis_missing", lambda: "bfcl-eval missing")
    folder = tmp_path / "inputs" / "tools"
    write_jsonl(folder / "questions.jsonl", [*map(json.loads, FIXTURE.read_text().splitlines()), MULTI_TURN])
    (folder / "predictions").mkdir()
    shutil.copy(PREDICTIONS / "function-calling.jsonl", folder / "predictions" / "fc.jsonl")
    (folder / "dataset.toml").write_text('kind = "function_calling"\nmax_unscored_share = 0.2\n')
    assert run(tmp_path) == 0
    row = _summary_row(tmp_path)
    assert row["published"] is True and row["not_scored"].startswith("1 of 5 items not scored: bfcl-eval")
    b5 = read_artifact_json(tmp_path / "outputs" / "tools" / "fc" / "B5_component_scores.json")["metrics"]
    assert b5["rows"] == 4
