"""Several replies per item through `evalpipe run`: (id, sample) rows from B2 to B5, avg@n / pass@k / maj@k in the
report worked out by hand, the same figures when the dataset is split into shards, and models with different n
compared item by item."""
import json
import re

import pytest

from pipeline.cli import main
from stages.io.artifacts import read_artifact_json, read_columns
from tests.pipeline.chat_server import ChatServer

pytest.importorskip("math_verify")

QUESTIONS = [{"id": "p1", "problem": "Half of one?", "answer": "\\frac{1}{2}"},
             {"id": "p2", "problem": "2 + 2?", "answer": "4"},
             {"id": "p3", "problem": "3 + 4?", "answer": "7"}]
FOUR = [{"id": "p1", "samples": ["\\boxed{0.5}", "\\boxed{3}", "\\boxed{1/2}", "\\boxed{3}"]},
        {"id": "p2", "samples": ["\\boxed{5}", "\\boxed{5}", "\\boxed{4}", "\\boxed{4.0}"]},
        {"id": "p3", "sample": 0, "prediction": "The answer is 7."},
        {"id": "p3", "sample": 1, "prediction": "The answer is 8."}]
ONE = [{"id": "p1", "prediction": "\\boxed{2}"}, {"id": "p2", "prediction": "\\boxed{4}"},
       {"id": "p3", "prediction": "\\boxed{7}"}]


def _dataset(root, toml="kind = \"math\"\n", four=FOUR):
    folder = root / "inputs" / "m"
    (folder / "predictions").mkdir(parents=True)
    (folder / "dataset.toml").write_text(toml)
    (folder / "questions.jsonl").write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS))
    for model, rows in (("four", four), ("one", ONE)):
        (folder / "predictions" / f"{model}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert main(["run", "--inputs", str(root / "inputs"), "--outputs", str(root / "outputs")]) == 0
    return read_artifact_json(root / "outputs" / "m" / "B6_report.json")["report"]


def test_replies_score_per_sample_and_sum_up_per_item(tmp_path, capsys):
    report = _dataset(tmp_path)
    b4 = read_columns(tmp_path / "outputs" / "m" / "four" / "B4_matches.json")
    assert list(zip(b4["id"], b4["sample"], b4["correct"])) == [
        ("p1", 0, True), ("p1", 1, False), ("p1", 2, True), ("p1", 3, False),
        ("p2", 0, False), ("p2", 1, False), ("p2", 2, True), ("p2", 3, True), ("p3", 0, True), ("p3", 1, False)]
    found = report["samples"]["four"]
    assert (found["n"], found["items"], found["replies"]) == (4, 3, 10)
    assert found["avg"]["accuracy"]["value"] == pytest.approx(0.5)  # each item: half its replies right
    # pass@2: p1, p2 1 − C(2,2)/C(4,2) = 5/6; p3 (2 replies) 1 − C(1,2)/C(2,2) = 1
    assert found["pass"]["2"]["value"] == pytest.approx((5 / 6 + 5 / 6 + 1) / 3)
    assert found["pass"]["4"]["value"] == pytest.approx(1.0)
    # maj@4: p1 right (0.5 and 1/2 are one answer, tied with the 3s and seen first), p2 wrong (the 5s came first),
    # p3 right (7 first, tied with 8)
    assert found["maj"] == {"1": pytest.approx(2 / 3), "2": pytest.approx(2 / 3), "4": pytest.approx(2 / 3)}
    assert found["short_items"] == {"count": 1, "named": [{"id": "p3", "replies": 2}]}
    assert found["sometimes_right"]["count"] == 3
    assert "one" not in report["samples"]
    assert "m: four: 3 items × up to 4 replies; accuracy avg@4 0.5000" in capsys.readouterr().out
    difference = report["differences"][0]  # item by item, each item's mean over its replies: not McNemar's 0 / 1
    assert (difference["first"], difference["second"], difference["n"]) == ("four", "one", 3)
    assert difference["difference"] == pytest.approx(0.5 - 2 / 3) and "McNemar" not in difference["method"]
    assert "bootstrap" in report["intervals"]["four"]["accuracy"]["method"]
    html = (tmp_path / "outputs" / "report.html").read_text()
    assert "<h3>Several replies per item</h3>" in html and "m: pass@k by k" in html and "m: maj@k by k" in html
    assert "accuracy 0.5000 [0.5000, 0.5000]" in html and "p1 (2/4)" in html
    assert "<td>four</td><td>4</td><td>3</td>" in html and "built-in method" not in html  # n 4, 3 items
    capsys.readouterr()
    assert main(["show", "B4", "--dataset", "m", "--model", "four", "--id", "p1", "--outputs",
                 str(tmp_path / "outputs")]) == 0
    assert [json.loads(line)["sample"] for line in capsys.readouterr().out.splitlines()] == [0, 1, 2, 3]


@pytest.mark.parametrize("toml", ["", "[params]\nshard_rows = 1\n"], ids=["whole", "shards"])
def test_replies_that_end_inside_their_reasoning_are_counted_of_the_replies(tmp_path, capsys, toml):
    """Two of four's ten replies never close their reasoning: 2 of 10 replies, not of its 3 items."""
    four = [{"id": "p1", "samples": ["\\boxed{0.5}", "<think>Maybe 3", "\\boxed{1/2}", "<think>Maybe 3"]}, *FOUR[1:]]
    report = _dataset(tmp_path, f"kind = \"math\"\n{toml}", four)
    assert report["replies"]["four"] == {"replies": 10, "unfinished_reasoning": 2, "cut_at_max_tokens": 0}
    assert "four: 2 of 10 replies end inside their reasoning" in capsys.readouterr().err
    assert "four: 2 of 10 replies end inside their reasoning" in (tmp_path / "outputs" / "report.html").read_text()


@pytest.mark.parametrize("toml", ["", "[params]\nshard_rows = 1\n"], ids=["whole", "shards"])
def test_the_explorer_shows_each_reply_with_its_status_and_the_items_right_of_n(tmp_path, toml):
    explorer = _dataset(tmp_path, f"kind = \"math\"\n{toml}")["explorer"]
    assert explorer["sampled"] == ["four"]
    cells = {item["id"]: item["cells"] for item in explorer["items"]}
    p1 = cells["p1"]["four"]
    assert [(r["sample"], r["prediction"], r["status"]) for r in p1["replies"]] == [
        (0, "\\boxed{0.5}", "correct"), (1, "\\boxed{3}", "wrong"), (2, "\\boxed{1/2}", "correct"),
        (3, "\\boxed{3}", "wrong")]
    assert (p1["right"], p1["n"], p1["status"], p1["score"]) == (2, 4, "sometimes right", 0.5)
    # pass@k of 2 right of 4: 1/2, 1 − C(2,2)/C(4,2) = 5/6, 1; the majority as maj@4 counts it: both right replies
    # one answer (0.5 and 1/2), tied with the two 3s and seen first; p2's 5s, seen before its right replies, win
    assert p1["pass"] == {"1": pytest.approx(0.5), "2": pytest.approx(5 / 6), "4": pytest.approx(1.0)}
    assert (p1["majority"]["votes"], p1["majority"]["of"], p1["majority"]["right"]) == (2, 4, True)
    assert cells["p2"]["four"]["majority"] == {"answer": "5", "votes": 2, "of": 4, "right": False}
    p3 = cells["p3"]["four"]
    assert p3["pass"] == {"1": pytest.approx(0.5), "2": pytest.approx(1.0)} and p3["majority"]["right"] is True
    assert [r["prediction"] for r in p3["replies"]] == ["The answer is 7.", "The answer is 8."]
    assert (p3["right"], p3["n"], p3["status"]) == (1, 2, "sometimes right")
    assert [cells[i]["one"]["status"] for i in ("p1", "p2", "p3")] == ["wrong", "correct", "correct"]
    assert "replies" not in cells["p1"]["one"]
    assert explorer["not_right"] == 3  # every item has a wrong reply of four's (first replies alone: p1, p2)


def test_the_explorers_filter_finds_the_items_not_right_in_every_reply(tmp_path):
    from tests.pipeline.browser import load_page

    _dataset(tmp_path)
    box = 'document.querySelector("details.explorer")'

    def choose(selector, value):
        return (f'{box}.querySelector("{selector}").value={json.dumps(value)};'
                f'{box}.querySelector("{selector}").dispatchEvent(new Event("change"));')

    script = (f"{choose('.model-a', 'four')}{choose('.filter', 'not-right')}document.body.dataset.four={box}.dataset"
              f".shown;document.body.dataset.replies={box}.querySelectorAll('tbody tr')[0].querySelectorAll('li')"
              f".length;document.body.dataset.status={box}.querySelector('tbody td.status').textContent;"
              f"document.body.dataset.count={box}.querySelector('.count').textContent;"
              f"document.body.dataset.figures={box}.querySelector('tbody .item-figures').textContent;"
              f"document.body.dataset.folded={box}.querySelectorAll('tbody tr')[0].querySelectorAll('li > details:not([open])')"
              f".length;"
              f"{choose('.model-a', 'one')}document.body.dataset.one={box}.dataset.shown;")
    page = tmp_path / "probe.html"
    html = (tmp_path / "outputs" / "report.html").read_text(encoding="utf-8")
    page.write_text(html.replace("</body>", f"<script>{script}</script></body>"), encoding="utf-8")
    dom, console = load_page(page, tmp_path / "profile")
    assert console == []
    body = dict(re.findall(r'data-([\w-]+)="([^"]*)"', re.search(r"<body([^>]*)>", dom).group(1)))
    assert (body["four"], body["one"], body["replies"]) == ("3", "1", "4")
    assert body["status"] == "sometimes right (2 of 4)" and body["folded"] == "4"
    assert body["figures"].startswith("avg@4 0.5 · pass@1 0.5 · pass@2 0.833 · pass@4 1 · majority ")
    assert body["figures"].endswith(" (2 of 4 votes, right)")
    assert body["count"] == "3 of 3 items shown (3 in the dataset, 3 not right in every reply for some model)"


def test_shards_give_the_same_figures(tmp_path):
    whole = _dataset(tmp_path / "whole")["samples"]["four"]
    split = _dataset(tmp_path / "split", "kind = \"math\"\n[params]\nshard_rows = 1\n")["samples"]["four"]
    assert split == whole


def test_generation_asks_n_replies_each_journaled_and_raising_n_asks_only_the_new_ones(tmp_path, capsys):
    """[generate] samples = n: each reply asked on its own with seed + sample; a rerun asks nothing, 2 → 4 asks the
    2 new replies per item, and the first reply is the one a single-reply run journaled."""
    folder = tmp_path / "inputs" / "live"
    folder.mkdir(parents=True)
    (folder / "questions.jsonl").write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS))
    run = ["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")]
    with ChatServer() as server:
        seeds = []

        def answer(message):
            seed = server.requests[-1]["body"].get("seed")
            seeds.append(seed)
            return "\\boxed{4}" if seed % 2 == 0 else "\\boxed{5}"  # even seeds answer 4

        server.answer = answer

        def generate(samples):
            line = "" if samples is None else f"samples = {samples}\n"
            (folder / "dataset.toml").write_text(
                f'kind = "math"\n[generate]\nprotocol = "openai"\nurl = "{server.url}"\nmodels = ["m"]\n'
                f"retries = 0\ntemperature = 0.8\nseed = 10\n{line}")
            assert main(run) == 0
            return len(server.chats())

        assert generate(None) == 3
        assert generate(2) == 3 + 3  # sample 0 is the answer already journaled
        assert generate(2) == 6  # nothing new
        assert generate(4) == 6 + 6
    assert sorted(seeds) == sorted([10] * 3 + [11] * 3 + [12] * 3 + [13] * 3)
    b2 = read_columns(tmp_path / "outputs" / "live" / "m" / "B2_predictions.json")
    assert list(zip(b2["id"], b2["sample"]))[:4] == [("p1", 0), ("p1", 1), ("p1", 2), ("p1", 3)]
    found = read_artifact_json(tmp_path / "outputs" / "live" / "B6_report.json")["report"]["samples"]["m"]
    assert (found["n"], found["items"], found["replies"]) == (4, 3, 12)
    # p2 (gold 4) is right on even seeds only: samples 0 and 2 of 4; p1 and p3 never
    assert found["avg"]["accuracy"]["value"] == pytest.approx((0 + 0.5 + 0) / 3)
    assert found["pass"]["4"]["value"] == pytest.approx(1 / 3)
    journal = [json.loads(line) for line in
               (tmp_path / "outputs" / "live" / "m" / "B2_generated.jsonl").read_text().splitlines()]
    assert sorted((r["id"], r.get("sample", 0)) for r in journal) == sorted(
        (q["id"], s) for q in QUESTIONS for s in range(4))


@pytest.mark.parametrize("honours_n", [True, False], ids=["server honours n", "server ignores n"])
def test_without_a_seed_an_items_missing_samples_are_asked_in_one_request_with_n(tmp_path, honours_n):
    """No seed: the request's `n` asks an item's missing samples at once (4, then 4 more when samples goes from 4 to
    8); a server that answers one choice whatever `n` says is asked the rest one request each."""
    folder = tmp_path / "inputs" / "live"
    folder.mkdir(parents=True)
    (folder / "questions.jsonl").write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS))
    run = ["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")]
    with ChatServer() as server:
        server.honours_n = honours_n
        asked = []

        def answer(message):
            asked.append(message)
            return f"\\boxed{{{len(asked) % 3}}}"

        server.answer = answer
        for samples in (4, 8, 8):
            (folder / "dataset.toml").write_text(
                f'kind = "math"\n[generate]\nprotocol = "openai"\nurl = "{server.url}"\nmodels = ["m"]\n'
                f"retries = 0\ntemperature = 0.8\nsamples = {samples}\n")
            assert main(run) == 0
        ns = [request["body"].get("n", 1) for request in server.chats()]
    assert len(asked) == 3 * 8  # every reply generated once
    assert sorted(ns) == sorted([4] * 6 + ([] if honours_n else [1] * 18))  # per run and item: n = 4 (+ 3 alone)
    b2 = read_columns(tmp_path / "outputs" / "live" / "m" / "B2_predictions.json")
    assert sorted(zip(b2["id"], b2["sample"])) == sorted((q["id"], s) for q in QUESTIONS for s in range(8))
    journal = [json.loads(line) for line in
               (tmp_path / "outputs" / "live" / "m" / "B2_generated.jsonl").read_text().splitlines()]
    assert len(journal) == 24 and len({(r["id"], r.get("sample", 0)) for r in journal}) == 24


def test_a_night_with_several_replies_is_compared_item_by_item_with_a_night_of_one(tmp_path, capsys):
    folder = tmp_path / "inputs" / "m"
    (folder / "predictions").mkdir(parents=True)
    (folder / "dataset.toml").write_text("kind = \"math\"\n")
    (folder / "questions.jsonl").write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS))
    nights = ["nightly", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs"), "--date"]
    for night, rows in (("2026-11-01", ONE), ("2026-11-02", FOUR)):
        (folder / "predictions" / "m.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
        assert main([*nights, night]) == 0
    found = json.loads((tmp_path / "outputs" / "nightly" / "2026-11-02" / "regressions.json").read_text())
    accuracy = next(c for c in found["comparisons"] if c["metric"] == "accuracy")
    assert (accuracy["test"], accuracy["paired_items"]) == ("mean", 3)
    assert accuracy["before"] == pytest.approx(2 / 3) and accuracy["after"] == pytest.approx(0.5)  # avg@4 per item
    assert accuracy["p_value"] is not None and "McNemar" not in accuracy["method"]


def test_wrong_answers_vote_together_when_the_kind_holds_them_equal(tmp_path):
    """maj@3 of 4, then 5, then 10/2 (gold 4): by text three answers tie and the right one, seen first, wins; by
    math-verify 5 and 10/2 are one answer with two votes. Numeric alike: 5.0 and 5.004 are one number within
    abs_tol 0.01, 5.0 and 5.02 are not."""
    questions = [{"id": "p", "problem": "2 + 2?", "answer": "4"}]
    replies = {"math": ["\\boxed{4}", "\\boxed{5}", "\\boxed{\\frac{10}{2}}"],
               "numeric": ["4", "5.0", "5.004"], "numeric_apart": ["4", "5.0", "5.02"]}
    for name, samples in replies.items():
        folder = tmp_path / "inputs" / name
        (folder / "predictions").mkdir(parents=True)
        (folder / "dataset.toml").write_text(f"kind = \"{name.split('_')[0]}\"\n")
        (folder / "questions.jsonl").write_text("".join(json.dumps({**q, "question": q["problem"]}) + "\n"
                                                        for q in questions))
        (folder / "predictions" / "m.jsonl").write_text(json.dumps({"id": "p", "samples": samples}) + "\n")
    assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")]) == 0
    majority = {name: read_artifact_json(tmp_path / "outputs" / name / "B6_report.json")["report"]["samples"]["m"]["maj"]
                for name in replies}
    assert majority == {"math": {"1": 1.0, "2": 1.0, "3": 0.0}, "numeric": {"1": 1.0, "2": 1.0, "3": 0.0},
                        "numeric_apart": {"1": 1.0, "2": 1.0, "3": 1.0}}
    b4 = read_columns(tmp_path / "outputs" / "math" / "m" / "B4_matches.json")
    assert b4["vote"] == ["4", "5", "5"] and b4["extracted"] == ["4", "5", "\\frac{10}{2}"]
