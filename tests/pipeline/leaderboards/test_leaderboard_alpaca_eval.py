"""AlpacaEval 2 as published (../shared/data/real/leaderboards/alpaca_eval): the folder imported as it is, the two
models' published win rates, standard errors, wins, draws and average lengths reproduced from their annotations with
no server; the published figures shown beside; broken verdict rows set aside with file, line and reason."""
from __future__ import annotations

import csv
import json
import re
import shutil
import statistics

import orjson
import pytest

from pipeline.cli import main
from stages.io.artifacts import read_artifact_json
from tests.pipeline.chat_server import ChatServer

BOARD = "leaderboards/alpaca_eval"
MODELS = ("alpaca-7b", "falcon-7b-instruct")


def _published(real_data) -> dict[str, dict[str, str]]:
    with open(real_data / BOARD / "weighted_alpaca_eval_gpt4_turbo_leaderboard.csv", newline="") as handle:
        return {row[""]: row for row in csv.DictReader(handle) if row[""] in MODELS}


def _import_and_run(tmp_path, source, capsys) -> dict:
    inputs, outputs = tmp_path / "inputs", tmp_path / "outputs"
    assert main(["import", "alpaca-eval", str(source), "--inputs", str(inputs)]) == 0
    assert main(["run", "--inputs", str(inputs), "--outputs", str(outputs)]) == 0
    capsys.readouterr()
    return read_artifact_json(outputs / "alpaca_eval" / "B6_report.json")["report"]


def test_published_figures_reproduced_from_the_annotations_without_a_server(tmp_path, real_data, capsys):
    report = _import_and_run(tmp_path, real_data / BOARD, capsys)
    section = report["leaderboards"]["alpaca_eval"]
    assert (section["judge"], section["baseline"]) == ("weighted_alpaca_eval_gpt4_turbo", "gpt4_1106_preview")
    for model, row in _published(real_data).items():
        found = section["models"][model]
        for name in ("win_rate", "standard_error", "discrete_win_rate"):
            assert found[name] == pytest.approx(float(row[name]), abs=0.01), (model, name)
        for name in ("n_wins", "n_wins_base", "n_draws", "n_total", "avg_length"):
            assert found[name] == int(row[name]), (model, name)
        assert found["not_judged"] == 0
        assert section["published"][model]["win_rate"] == pytest.approx(float(row["win_rate"]))
        assert section["published"][model]["length_controlled_winrate"] == pytest.approx(
            float(row["length_controlled_winrate"]))
    # no instruction difficulty in these files: no LC figure is made up, and the report says why
    assert section["models"]["alpaca-7b"]["length_controlled_winrate"] is None and section["notes"]
    assert section["headline"] == "win_rate"
    assert sorted(section["models"]) == sorted(MODELS)  # the baseline, published at 50, is no row of its own


def test_the_console_and_the_text_report_lead_with_the_leaderboard(tmp_path, real_data, capsys):
    inputs, outputs = tmp_path / "inputs", tmp_path / "outputs"
    assert main(["import", "alpaca-eval", str(real_data / BOARD), "--inputs", str(inputs)]) == 0
    assert "805 instructions, 3 models (baseline gpt4_1106_preview); 1610 verdicts" in capsys.readouterr().out
    assert main(["run", "--inputs", str(inputs), "--outputs", str(outputs)]) == 0
    console = capsys.readouterr().out
    assert re.search(r"alpaca-7b\s+alpaca_eval:win_rate\s+2.5915", console) and "answer_rate" not in console
    assert re.search(r"gpt4_1106_preview\s+alpaca_eval:win_rate\s+\(baseline\)", console)  # no figure of its own
    text = (outputs / "alpaca_eval" / "B6_report.txt").read_text()
    assert text.startswith("AlpacaEval 2 (judge weighted_alpaca_eval_gpt4_turbo, baseline gpt4_1106_preview)")
    assert "(published)" in text
    summary = json.loads((outputs / "B6_summary.json").read_text())
    row = next(r for r in summary["rows"] if r["model"] == "falcon-7b-instruct")
    assert row["metric"] == "alpaca_eval:win_rate" and row["value"] == pytest.approx(2.146617553167702)
    # importing the same folder again changes nothing
    assert main(["import", "alpaca-eval", str(real_data / BOARD), "--inputs", str(inputs)]) == 0
    assert "0 file(s) written" in capsys.readouterr().out


def test_broken_verdict_rows_are_set_aside_with_their_line(tmp_path, real_data, capsys):
    inputs, outputs = tmp_path / "inputs", tmp_path / "outputs"
    assert main(["import", "alpaca-eval", str(real_data / BOARD), "--inputs", str(inputs)]) == 0
    verdicts = inputs / "alpaca_eval" / "verdicts" / "weighted_alpaca_eval_gpt4_turbo.jsonl"
    lines = verdicts.read_bytes().splitlines()
    first = orjson.loads(lines[0])
    lines[0] = orjson.dumps({**first, "preference": "lost"})
    lines[1] = b'{"id": "1", "model": "alpaca-7b", "preference": '  # cut short
    verdicts.write_bytes(b"\n".join(lines) + b"\n")
    assert main(["run", "--inputs", str(inputs), "--outputs", str(outputs)]) == 0
    capsys.readouterr()
    b5l = read_artifact_json(outputs / "alpaca_eval" / "alpaca-7b" / "B5_leaderboard.json")
    reasons = {r["line"]: r["reason"] for r in b5l["rejects"]}
    assert set(reasons) == {1, 2} and "not in [1, 2]" in reasons[1]
    assert all(r["source"] == str(verdicts) for r in b5l["rejects"])
    counts = b5l["header"]["counts"]
    assert (counts["judged"], counts["not_judged"], counts["both_answered"]) == (803, 2, 805)
    report = read_artifact_json(outputs / "alpaca_eval" / "B6_report.json")["report"]
    assert report["leaderboards"]["alpaca_eval"]["models"]["alpaca-7b"]["n_total"] == 803
    assert report["leaderboards"]["alpaca_eval"]["models"]["alpaca-7b"]["not_judged"] == 2


def test_instruction_difficulty_beside_results_gives_the_lc_figure(tmp_path, real_data, capsys):
    source = tmp_path / "alpaca_eval"
    shutil.copytree(real_data / BOARD / "results", source / "results")
    (source / "instruction_difficulty.csv").write_text(
        "index,instruction_difficulty\n" + "".join(f"{i},{(i % 7) / 3 - 1}\n" for i in range(805)))
    report = _import_and_run(tmp_path, source, capsys)
    section = report["leaderboards"]["alpaca_eval"]
    lc = section["models"]["alpaca-7b"]["length_controlled_winrate"]
    assert lc is not None and 0 < lc < 100 and section["headline"] == "length_controlled_winrate"
    assert not section["notes"]


def test_a_baseline_that_is_not_a_model_is_one_line(tmp_path, real_data, capsys):
    inputs = tmp_path / "inputs"
    assert main(["import", "alpaca-eval", str(real_data / BOARD), "--inputs", str(inputs)]) == 0
    assert main(["import", "alpaca-eval", str(real_data / BOARD), "--inputs", str(tmp_path / "other"),
                 "--baseline", "gpt5"]) == 2
    assert "gpt5/model_outputs.json: the baseline's outputs are not there" in capsys.readouterr().err
    assert not (tmp_path / "other").exists()
    config = inputs / "alpaca_eval" / "dataset.toml"
    config.write_text(config.read_text().replace('baseline = "gpt4_1106_preview"', 'baseline = "nobody"'))
    assert main(["run", "--inputs", str(inputs), "--outputs", str(tmp_path / "outputs")]) == 1
    assert "[leaderboard] baseline 'nobody' is not one of the dataset's models" in capsys.readouterr().err


def test_the_leaderboard_figures_are_nightly_metrics_with_alarms(tmp_path, real_data, capsys):
    import pyarrow.parquet as pq

    inputs, outputs = tmp_path / "inputs", tmp_path / "outputs"
    assert main(["import", "alpaca-eval", str(real_data / BOARD), "--inputs", str(inputs)]) == 0
    night = ["nightly", "--inputs", str(inputs), "--outputs", str(outputs)]
    assert main([*night, "--date", "2026-11-01"]) == 0
    verdicts = inputs / "alpaca_eval" / "verdicts" / "weighted_alpaca_eval_gpt4_turbo.jsonl"
    rows = [orjson.loads(line) for line in verdicts.read_bytes().splitlines()]
    verdicts.write_bytes(b"".join(orjson.dumps({**row, "preference": 1.0} if row["model"] == "alpaca-7b" else row)
                                  + b"\n" for row in rows))  # the annotator now prefers the baseline every time
    capsys.readouterr()
    assert main([*night, "--date", "2026-11-02"]) == 3
    out = capsys.readouterr().out
    assert "REGRESSION alpaca_eval / alpaca-7b / alpaca_eval:win_rate: 0.0259 → 0.0000" in out
    assert "falcon-7b-instruct / alpaca_eval:win_rate" not in out
    history = pq.read_table(outputs / "nightly" / "history.parquet").to_pylist()
    found = {(r["date"], r["model"]): r["value"] for r in history if r["metric"] == "alpaca_eval:win_rate"}
    assert found[("2026-11-01", "alpaca-7b")] == pytest.approx(2.591450540223603)
    assert found[("2026-11-02", "alpaca-7b")] == 0.0
    assert all(r["primary"] == (r["metric"] == "alpaca_eval:win_rate") for r in history)


def test_verdicts_the_annotations_lack_are_asked_and_weighted_by_the_servers_logprobs(tmp_path, real_data, capsys):
    """Ten of alpaca-7b's annotations removed: those ten, and only those, are asked of a scripted annotator that
    answers m or M with logprobs; each becomes 1 + P(model's letter) as AlpacaEval's weighted annotator computes it,
    the order of the two outputs drawn per instruction."""
    import hashlib
    import math

    inputs, outputs = tmp_path / "inputs", tmp_path / "outputs"
    assert main(["import", "alpaca-eval", str(real_data / BOARD), "--inputs", str(inputs)]) == 0
    folder = inputs / "alpaca_eval"
    verdicts = folder / "verdicts" / "weighted_alpaca_eval_gpt4_turbo.jsonl"
    rows = [orjson.loads(line) for line in verdicts.read_bytes().splitlines()]
    removed = {row["id"] for row in rows if row["model"] == "alpaca-7b"}
    removed = set(sorted(removed, key=int)[:10])
    verdicts.write_bytes(b"".join(orjson.dumps(row) + b"\n" for row in rows
                                  if not (row["model"] == "alpaca-7b" and row["id"] in removed)))

    def p_second(message: str) -> float:
        return 0.05 + 0.9 * (int(hashlib.sha256(message.encode()).hexdigest(), 16) % 1000) / 1000

    with ChatServer() as server:
        server.answer = lambda message: "M" if p_second(message) > 0.5 else "m"
        server.logprobs = lambda message: {"M": math.log(p_second(message)), "m": math.log(1 - p_second(message)),
                                           "The": -9.0}
        with open(folder / "dataset.toml", "a") as handle:
            handle.write(f'\n[judge]\nurl = "{server.url}"\nmodel = "gpt-4-1106-preview"\nmax_tokens = 1\n'
                         "top_logprobs = 5\n")
        assert main(["run", "--inputs", str(inputs), "--outputs", str(outputs)]) == 0
        chats = server.chats()
    capsys.readouterr()
    assert len(chats) == 10 and all(c["body"]["logprobs"] is True and c["body"]["top_logprobs"] == 5 for c in chats)
    outputs_7b = {r["instruction"]: r["output"] for r in json.loads(
        (real_data / BOARD / "results/alpaca-7b/model_outputs.json").read_text())}
    asked = {}
    for chat in chats:
        message = chat["body"]["messages"][-1]["content"]
        instruction = message.split("Instruction:\n", 1)[1].split("\n\nModel m answered:", 1)[0]
        first = message.split("Model m answered:\n", 1)[1].split("\n\nModel M answered:", 1)[0]
        model_first = first == outputs_7b[instruction]
        asked[instruction] = 1 + ((1 - p_second(message)) if model_first else p_second(message))
    b5l = read_artifact_json(outputs / "alpaca_eval" / "alpaca-7b" / "B5_leaderboard.json")
    assert b5l["header"]["counts"]["recorded"] == 795 and b5l["header"]["counts"]["not_judged"] == 0
    recorded = [row["preference"] for row in rows if row["model"] == "alpaca-7b" and row["id"] not in removed]
    every = recorded + list(asked.values())
    section = read_artifact_json(outputs / "alpaca_eval/B6_report.json")["report"]["leaderboards"]["alpaca_eval"]
    assert section["models"]["alpaca-7b"]["win_rate"] == pytest.approx(statistics.mean(p - 1 for p in every) * 100)
    assert section["models"]["falcon-7b-instruct"]["win_rate"] == pytest.approx(2.146617553167702)
