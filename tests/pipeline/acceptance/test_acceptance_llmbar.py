"""Acceptance on published data: LLMBar's Natural set (../shared/data/real/llmbar) with GPT-4's recorded verdicts in
both orders replayed by a scripted judge on 127.0.0.1, and the experts' labels as a rater's preferences. evalpipe must
reproduce LLMBar's published figures exactly: 95 and 96 of 100 right per order (mean 95.5%), positional agreement
95%, right in both orders 93%."""
import csv
import json
from pathlib import Path

import pytest

from pipeline.cli import main
from stages.io.artifacts import read_artifact_json
from tests.pipeline.chat_server import ChatServer
from tests.pipeline.workspace import write_jsonl

LLMBAR = "llmbar/natural_gpt4_vanilla.json"  # under the real data


@pytest.fixture(scope="module")
def pairs(real_data):
    return json.loads((real_data / LLMBAR).read_text(encoding="utf-8"))


def _replay(pairs: list[dict]):
    """GPT-4's recorded verdict for the answers shown as A and B: "swap = False" showed output_1 first."""
    verdicts = {}
    for pair in pairs:
        recorded = pair["results"][0]
        for swap, (a, b) in (("swap = False", ("output_1", "output_2")), ("swap = True", ("output_2", "output_1"))):
            won = f"output_{recorded[swap]['winner']}"
            verdicts[(pair[a], pair[b])] = "[[A]]" if won == a else "[[B]]"

    def answer(prompt: str) -> str:
        shown_a = prompt.split("Response A: ", 1)[1].split("\n\nResponse B: ", 1)[0]
        shown_b = prompt.split("\n\nResponse B: ", 1)[1].split("\n\nWhich response", 1)[0]
        return verdicts[(shown_a, shown_b)]

    return answer


def _llmbar_dataset(folder: Path, pairs: list[dict]) -> Path:
    """LLMBar Natural as an instruction dataset: the two outputs as models, the experts' labels as preferences."""
    write_jsonl(folder / "questions.jsonl", [{"id": str(i), "instruction": p["input"]} for i, p in enumerate(pairs)])
    for name in ("output_1", "output_2"):
        write_jsonl(folder / "predictions" / f"{name}.jsonl",
                    [{"id": str(i), "output": p[name]} for i, p in enumerate(pairs)])
    (folder / "labels").mkdir()
    with open(folder / "labels" / "experts.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "model_a", "model_b", "winner"])
        writer.writerows([str(i), "output_1", "output_2", f"output_{p['label']}"] for i, p in enumerate(pairs))
    return folder


def test_gpt4_on_llmbar_natural_reproduces_the_published_figures(tmp_path, pairs):
    folder = _llmbar_dataset(tmp_path / "inputs" / "llmbar_natural", pairs)
    with ChatServer() as server:
        server.answer = _replay(pairs)
        (folder / "dataset.toml").write_text(
            f'kind = "instruction"\n[judge]\nurl = "{server.url}"\nmodel = "gpt-4"\npairwise = true\nconcurrency = 8\n')
        assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")]) == 0
        assert len(server.chats()) == 200
    report = read_artifact_json(tmp_path / "outputs/llmbar_natural/B6_report.json")["report"]
    experts = report["preferences"]["against"]["experts"]
    assert experts["orders"]["first_shown_first"] == {"n": 100, "accuracy": 0.95}
    assert experts["orders"]["second_shown_first"] == {"n": 100, "accuracy": 0.96}
    assert experts["orders"]["mean_accuracy"] == pytest.approx(0.955)
    assert report["pairwise"]["pairs"][0]["position_consistency"] == 0.95
    assert experts["n"] == 100 and experts["accuracy"] == 0.93  # right in both orders (a flip is a tie, never right)
    text = (tmp_path / "outputs/llmbar_natural/B6_report.txt").read_text()
    assert ("judge against experts (preferences): accuracy 93.0% (n=100)" in text
            and "each order alone 95.0% / 96.0%, mean 95.5%" in text), text
    page = (tmp_path / "outputs/report.html").read_text()
    assert "The judge against people's preferences" in page and 'class="confusion"' in page
    board = report["bradley_terry"]
    judge_first = board["models"][0]["model"]
    people_first = board["people"]["models"][0]["model"]
    experts_prefer_2 = sum(p["label"] == 2 for p in pairs) > sum(p["label"] == 1 for p in pairs)
    assert people_first == ("output_2" if experts_prefer_2 else "output_1")
    assert board["kendall_tau"]["tau"] == (1.0 if judge_first == people_first else -1.0)
    assert "Kendall's τ" in text and "From people's preferences" in page
    decided = [(p, r["swap = False"]["winner"]) for p in pairs for r in p["results"][:1]
               if r["swap = False"]["winner"] == r["swap = True"]["winner"]]
    flips = [p["results"][0] for p in pairs if p["results"][0]["swap = False"]["winner"] !=
             p["results"][0]["swap = True"]["winner"]]

    def longer_won(pair: dict, won: str) -> bool:
        return len(pair[f"output_{won}"]) > len(pair[f"output_{3 - int(won)}"])

    gpt4 = report["biases"]["judges"]["gpt-4"]
    assert gpt4["order_pairs"] == 100 and gpt4["flipped"] == len(flips) == 5
    # a flip that chose A both times: output_1 won with it shown first, output_2 won with it shown first
    assert gpt4["followed_a"] == sum(r["swap = False"]["winner"] == "1" for r in flips) / 5
    different = [(p, won) for p, won in decided if len(p["output_1"]) != len(p["output_2"])]
    assert gpt4["length"] == {"n": len(different),
                              "longer_preferred": sum(longer_won(p, w) for p, w in different) / len(different)}
    people = [(p, str(p["label"])) for p in pairs if len(p["output_1"]) != len(p["output_2"])]
    assert report["biases"]["people"] == {"n": len(people),
                                          "longer_preferred": sum(longer_won(p, w) for p, w in people) / len(people)}
    assert "biases of judge gpt-4: position consistency 95.0% of 100 order pairs" in text


def test_agreement_with_people_is_a_nightly_metric_and_its_fall_alarms(tmp_path, pairs, capsys):
    """Night 1 replays GPT-4's verdicts (LLMBar's published per-order accuracy in the history); night 2 the judge,
    asked anew with other settings, picks A every time: its agreement with the experts falls, compared item by item
    although the judge changed, and the night exits 3 with one line naming dataset, judge and figure."""
    import pyarrow.parquet as pq

    folder = _llmbar_dataset(tmp_path / "inputs" / "llmbar_natural", pairs)
    night = ["nightly", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")]
    with ChatServer() as server:
        server.answer = _replay(pairs)
        (folder / "dataset.toml").write_text(
            f'kind = "instruction"\n[judge]\nurl = "{server.url}"\nmodel = "gpt-4"\npairwise = true\nconcurrency = 8\n')
        assert main([*night, "--date", "2026-11-01"]) == 0
        server.answer = lambda prompt: "[[A]]"
        (folder / "dataset.toml").write_text((folder / "dataset.toml").read_text() + "temperature = 0.7\n")
        capsys.readouterr()
        assert main([*night, "--date", "2026-11-02"]) == 3
    out = capsys.readouterr().out
    alarm = [line for line in out.splitlines() if line.startswith("REGRESSION")]
    assert len(alarm) == 1 and alarm[0].startswith(
        "REGRESSION llmbar_natural / gpt-4 / agreement:preferences: 0.9550 → 0.5"), out
    history = pq.read_table(tmp_path / "outputs/nightly/history.parquet").to_pylist()
    found = {(r["date"], r["metric"]): r["value"] for r in history if r["metric"].startswith("agreement:")}
    assert found[("2026-11-01", "agreement:mean_order_accuracy")] == pytest.approx(0.955)
    assert found[("2026-11-01", "agreement:accuracy")] == pytest.approx(0.93)
    assert found[("2026-11-01", "agreement:position_consistency")] == pytest.approx(0.95)
    assert found[("2026-11-02", "agreement:position_consistency")] == 0.0  # A both times: every choice flips


def test_four_nights_of_a_judge_watched_against_the_experts(tmp_path, pairs, capsys):
    """Night 1 replays GPT-4 (fingerprint fp_1): the published agreement. Night 2, unchanged: only the recheck share
    is asked and nothing is raised. Night 3 the server behind the same name changed (fp_2, always A): one line says
    so, every verdict is asked again, the agreement's fall alarms, exit 3. Night 4 a renamed judge replaying GPT-4 is
    compared with the one it replaced, side by side."""
    folder = _llmbar_dataset(tmp_path / "inputs" / "llmbar_natural", pairs)
    night = ["nightly", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")]
    table = 'kind = "instruction"\n[judge]\nurl = "{url}"\nmodel = "{model}"\npairwise = true\nconcurrency = 8\n' \
            "recheck = 0.1\n"
    with ChatServer() as server:
        server.answer, server.fingerprint = _replay(pairs), "fp_1"
        (folder / "dataset.toml").write_text(table.format(url=server.url, model="gpt-4"))
        assert main([*night, "--date", "2026-11-01"]) == 0
        report = read_artifact_json(tmp_path / "outputs/nightly/2026-11-01/llmbar_natural/B6_report.json")["report"]
        assert report["preferences"]["against"]["experts"]["orders"]["mean_accuracy"] == pytest.approx(0.955)
        assert len(server.chats()) == 200
        capsys.readouterr()
        assert main([*night, "--date", "2026-11-02"]) == 0
        captured = capsys.readouterr()
        assert len(server.chats()) == 220 and "evalpipe: judge" not in captured.err
        assert "REGRESSION" not in captured.out
        server.answer, server.fingerprint = (lambda prompt: "[[A]]"), "fp_2"
        assert main([*night, "--date", "2026-11-03"]) == 3
        captured = capsys.readouterr()
        said = [line for line in captured.err.splitlines() if line.startswith("evalpipe: judge gpt-4:")]
        assert said == ["evalpipe: judge gpt-4: its server now answers as gpt-4 / fp_2 where its stored verdicts "
                        "came from gpt-4 / fp_1; none of its stored verdicts are used this run (asked again)"]
        assert len(server.chats()) == 220 + 200
        assert "REGRESSION llmbar_natural / gpt-4 / agreement:preferences: 0.9550 → 0.5" in captured.out
        server.answer, server.fingerprint = _replay(pairs), "fp_3"
        (folder / "dataset.toml").write_text(table.format(url=server.url, model="gpt-4o"))
        assert main([*night, "--date", "2026-11-04"]) == 0
    capsys.readouterr()
    found = json.loads((tmp_path / "outputs/nightly/2026-11-04/regressions.json").read_text())
    side = [c for c in found["comparisons"] if c["metric"] == "agreement:preferences"]
    assert len(side) == 1 and side[0]["model"] == "gpt-4 → gpt-4o" and side[0]["paired_items"] == 200
    assert side[0]["before"] == pytest.approx(0.5) and side[0]["after"] == pytest.approx(0.955)
