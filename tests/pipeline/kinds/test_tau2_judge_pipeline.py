"""A tau2 dataset with a [judge] (no criteria) through `evalpipe run`: B4 asks a scripted judge on 127.0.0.1 the NL
assertions of the trials they decide, through a journal beside B4's artifact; a call that failed leaves its trial
not judged, named in the report, and the next run asks only that call; a run with everything answered asks nothing;
`[judge] recheck` asks stored verdicts again on another night, a flip read as a verdict (not as words)."""
import ast
import json
import shutil

from pipeline.cli import main
from stages.io.artifacts import read_columns
from tests.pipeline.chat_server import ChatServer
from tests.pipeline.workspace import REPO, changed_artifacts, run, snapshot

CONFORMANCE = REPO / "tests" / "stages" / "kinds" / "tau2" / "conformance"
KIND = "The agent says something kind"


def _kindness(prompt: str) -> str:
    """tau2's judge answer: the assertion met when the conversation has the agent call the user lovely."""
    met = "assistant: Created, you are lovely." in prompt
    outcomes = ast.literal_eval(prompt.split("expectedOutcomes:\n")[1].strip())
    return json.dumps({"results": [{"expectedOutcome": text, "reasoning": "scripted", "metExpectation": met}
                                   for text in outcomes]})


def _dataset(tmp_path, judge: ChatServer) -> None:
    dataset = tmp_path / "inputs" / "todo"
    shutil.copytree(CONFORMANCE, dataset, ignore=shutil.ignore_patterns("expected.json"))
    (dataset / "dataset.toml").write_text(f'kind = "tau2"\n[judge]\nurl = "{judge.url}"\nmodel = "j"\nretries = 0\n'
                                          'concurrency = 1\nstore = false\n')


def _judged_trials(tmp_path, model: str) -> list[dict]:
    b4 = read_columns(tmp_path / "outputs" / "todo" / model / "B4_matches.json")
    return json.loads(dict(zip(b4["id"], b4["evaluations"]))["judged"])


def test_nl_assertions_are_asked_of_the_judge_in_b4_and_a_rerun_asks_nothing(tmp_path):
    with ChatServer() as judge:
        judge.answer = _kindness
        _dataset(tmp_path, judge)
        assert run(tmp_path) == 0
        assert len(judge.chats()) == 3  # good's two trials, bad's trial whose database is right
        good, bad = _judged_trials(tmp_path, "good"), _judged_trials(tmp_path, "bad")
        assert [t["reward"] for t in good] == [1.0, 0.0] and [t["reward"] for t in bad] == [0.0, 0.0]
        assert good[0]["components"]["NL_ASSERTION"]["reason"] == "the judge found all 1 met"
        assert good[1]["components"]["NL_ASSERTION"]["reason"] == f"the judge found not met: {KIND}"
        assert bad[1]["components"]["NL_ASSERTION"]["reason"] == f"the judge found not met: {KIND}"
        assert (tmp_path / "outputs" / "todo" / "good" / "B4_judge_calls.jsonl").is_file()
        text = (tmp_path / "outputs" / "todo" / "B6_report.txt").read_text(encoding="utf-8")
        assert "a trial not judged" not in text
        rows = {line.split()[0]: line.split()[1:] for line in text.splitlines()[2:4]}
        assert rows["good"] == ["3", "6", "66.67%", "33.33%", "66.67%", "0", "0"]  # without a judge: 2 not judged
        assert rows["bad"] == ["3", "6", "33.33%", "33.33%", "33.33%", "0", "0"]
        settled = snapshot(tmp_path / "outputs")
        assert run(tmp_path) == 0
        assert len(judge.chats()) == 3 and changed_artifacts(settled, snapshot(tmp_path / "outputs")) == set()
    report = json.loads((tmp_path / "outputs" / "todo" / "B6_report.json").read_text())["report"]
    stages = report["judge_cost"]["stages"]
    assert {name: usage["asked"] for name, usage in stages.items()} == {"good (B4)": 2, "bad (B4)": 1}
    words_in = sum(len(chat["body"]["messages"][0]["content"].split() + chat["body"]["messages"][1]["content"].split())
                   for chat in judge.chats())
    assert report["judge_cost"]["total"]["tokens_in"] == words_in  # the server counts words as tokens


def test_max_calls_counts_the_b4_calls_and_leaves_the_rest_not_judged(tmp_path):
    with ChatServer() as judge:
        judge.answer = _kindness
        _dataset(tmp_path, judge)
        toml = tmp_path / "inputs" / "todo" / "dataset.toml"
        toml.write_text(toml.read_text() + "max_calls = 2\n")
        assert run(tmp_path) == 0
        assert len(judge.chats()) == 2
        statuses = [t["status"] for model in ("good", "bad") for t in _judged_trials(tmp_path, model)]
        assert statuses.count("not judged") == 1


def test_a_failed_judge_call_leaves_its_trial_not_judged_and_the_next_run_asks_only_it(tmp_path):
    with ChatServer() as judge:
        judge.answer = _kindness
        judge.faults = [500]  # the judge is down for the first call asked
        _dataset(tmp_path, judge)
        assert run(tmp_path) == 0
        assert len(judge.chats()) == 3
        trials = {model: _judged_trials(tmp_path, model) for model in ("good", "bad")}
        missed = [(model, t["trial"]) for model, found in trials.items() for t in found if t["status"] == "not judged"]
        assert len(missed) == 1
        model, number = missed[0]
        reason = trials[model][number]["components"]["NL_ASSERTION"]["reason"]
        assert reason.startswith("no verdict: ") and "500" in reason
        text = (tmp_path / "outputs" / "todo" / "B6_report.txt").read_text(encoding="utf-8")
        assert f"{model}: tasks left out of pass^k (a trial not judged): judged" in text
        assert run(tmp_path) == 0
        assert len(judge.chats()) == 4  # only the failed call asked again
        assert judge.chats()[-1]["body"]["messages"][1]["content"] == judge.chats()[0]["body"]["messages"][1]["content"]
        assert [t["reward"] for t in _judged_trials(tmp_path, "good")] == [1.0, 0.0]
        assert [t["reward"] for t in _judged_trials(tmp_path, "bad")] == [0.0, 0.0]
        assert "a trial not judged" not in (tmp_path / "outputs" / "todo" / "B6_report.txt").read_text(encoding="utf-8")
        assert run(tmp_path) == 0 and len(judge.chats()) == 4


def test_criteria_cannot_be_asked_of_tau2_trials(tmp_path, capsys):
    with ChatServer() as judge:
        _dataset(tmp_path, judge)
        toml = tmp_path / "inputs" / "todo" / "dataset.toml"
        toml.write_text(toml.read_text() + 'criteria = ["correct"]\n')
        assert run(tmp_path) == 1
        assert "[judge] criteria cannot be asked of its items" in capsys.readouterr().err
        assert judge.chats() == []


def test_a_dead_judge_leaves_every_trial_it_decides_not_judged_counted_and_named(tmp_path, capsys):
    dead = ChatServer()
    dead.httpd.server_close()
    _dataset(tmp_path, dead)
    assert run(tmp_path) == 0
    assert "todo: judge: 3 asked, 0 reused, 3 failed" in capsys.readouterr().out
    trials = _judged_trials(tmp_path, "good") + _judged_trials(tmp_path, "bad")[1:]
    assert [t["status"] for t in trials] == ["not judged"] * 3
    assert all("Connection refused" in t["components"]["NL_ASSERTION"]["reason"] for t in trials)
    text = (tmp_path / "outputs" / "todo" / "B6_report.txt").read_text(encoding="utf-8")
    rows = {line.split()[0]: line.split()[1:] for line in text.splitlines()[2:4]}
    assert rows["good"][-2:] == ["2", "0"] and rows["bad"][-2:] == ["1", "0"]  # not judged, infra errors
    assert "good: tasks left out of pass^k (a trial not judged): judged" in text
    assert "bad: tasks left out of pass^k (a trial not judged): judged" in text


def test_judge_recheck_in_b4_asks_a_share_of_the_stored_verdicts_again_and_says_when_it_distrusts_them(tmp_path,
                                                                                                      capsys):
    store = tmp_path / "verdicts.jsonl"

    def night(name: str) -> int:
        return main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / name)])

    with ChatServer() as judge:
        judge.answer = _kindness
        _dataset(tmp_path, judge)
        toml = tmp_path / "inputs" / "todo" / "dataset.toml"
        toml.write_text(toml.read_text().replace("store = false", f'store = "{store}"\nrecheck = 1.0'))
        assert night("night1") == 0 and len(judge.chats()) == 3
        judge.answer = lambda prompt: _kindness(prompt).replace('"scripted"', '"other words"')  # same verdicts
        assert night("night2") == 0 and len(judge.chats()) == 6
        report = json.loads((tmp_path / "night2" / "todo" / "B6_report.json").read_text())["report"]
        usage = report["judge_cost"]["stages"]
        assert {name: (u["rechecked"], u["flips"]) for name, u in usage.items()} == {"good (B4)": (2, 0),
                                                                                     "bad (B4)": (1, 0)}
        assert "stored verdicts are used" not in capsys.readouterr().err
        judge.answer = lambda prompt: _kindness(prompt).replace('"metExpectation": true', '"metExpectation": false')
        assert night("night3") == 0
        # good's met trial flips (1 of its 2 rechecked): its judge distrusted, said once; bad's one trial did not
        assert "evalpipe: judge j: 1 of 2 rechecked verdicts flipped (50%, above recheck_max_flips 10%); none of " \
               "its stored verdicts are used this run (asked again)" in capsys.readouterr().err
    b4 = read_columns(tmp_path / "night3" / "todo" / "good" / "B4_matches.json")
    assert [t["reward"] for t in json.loads(dict(zip(b4["id"], b4["evaluations"]))["judged"])] == [0.0, 0.0]
