"""NL_ASSERTION asked of a scripted [judge] on 127.0.0.1: the prompts byte-equal to those tau2 1.0.1 sends its judge,
and the reward tau2's evaluate_simulation gives for the same judge answer (tau2_reference/nl_assertions.jsonl, made by
make_tau2_nl_assertions.py); a rerun asks nothing; no judge, a dead one or an answer that is not JSON: not judged."""
import ast
import hashlib
import json
from pathlib import Path

import pytest

from stages.judge.config import read_judge_config
from stages.judge.match_asker import JudgeAsker
from stages.kinds.base import get_kind
from stages.kinds.tau2.domains import read_domain
from stages.kinds.tau2.evaluation import evaluate
from stages.kinds.tau2.nl_assertions import judge_nl_assertions, nl_component
from tests.pipeline.chat_server import ChatServer
from tests.stages.kinds.tau2.trajectories import DOMAINS, calls_trajectory

pytestmark = pytest.mark.skipif(not DOMAINS.is_dir(), reason="the shared tau2 data is not here")
REFERENCE = Path(__file__).parent / "tau2_reference" / "nl_assertions.jsonl"


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _scripted(answer: str):
    """The judge's answer to a prompt: as make_tau2_nl_assertions.py's scripted judge answers tau2."""
    def reply(prompt: str) -> str:
        listed = prompt.split("expectedOutcomes:\n")[1].strip()
        assertions = ast.literal_eval(listed)
        if answer == "empty":
            return json.dumps({"results": []})
        return json.dumps({"results": [{"expectedOutcome": text, "reasoning": "scripted",
                                        "metExpectation": not (answer == "missed" and number == 0)}
                                       for number, text in enumerate(assertions)]})
    return reply


def _judge(server: ChatServer, **settings):
    return read_judge_config({"url": server.url, "model": "gpt-4.1-2025-04-14", "criteria": ["correct"],
                              "retries": 0, "store": False, **settings}, "test")


def test_prompts_and_rewards_equal_tau2s_for_every_retail_task_its_judge_decides(tmp_path):
    lines = [json.loads(line) for line in REFERENCE.read_text().splitlines()]
    data = read_domain(DOMAINS / "retail")
    tasks = {t["id"]: t for t in json.loads((DOMAINS / "retail" / "tasks.json").read_text())}
    trials = {}
    for line in lines:
        task = tasks[line["task"]]
        messages = calls_trajectory(task, data, line["calls"], line["closing"])
        trials[f"{line['task']}/{line['variant']}"] = (messages, task["evaluation_criteria"]["nl_assertions"])
    assert len(lines) == 76 and {line["judge"] for line in lines} == {"gpt-4.1-2025-04-14"}
    assert {json.dumps(line["settings"]) for line in lines} == {'{"temperature": 0.0}'}
    for answer in ("met", "missed", "empty"):
        with ChatServer() as server:
            server.answer = _scripted(answer)
            judged, usage = judge_nl_assertions(trials, JudgeAsker(_judge(server), tmp_path / f"{answer}.jsonl"))
            assert usage["asked"] == len(lines) and usage["failed"] == 0
            sent = {(chat["body"]["messages"][0]["content"], chat["body"]["messages"][1]["content"])
                    for chat in server.chats()}
            assert {chat["body"]["temperature"] for chat in server.chats()} == {0.0}
        digests = {(_sha(system), _sha(user)) for system, user in sent}
        assert digests == {(line["system_sha256"], line["user_sha256"]) for line in lines}
        for line in lines:
            key = f"{line['task']}/{line['variant']}"
            task = tasks[line["task"]]
            got = evaluate(task, data, trials[key][0], "agent_stop", judged[key])
            assert got.reward == line["rewards"][answer], (key, answer, got.note, got.components)


def _retail_trial():
    """Retail task 2's gold trial (its reward rests on its NL assertions) as a one-task B3 row."""
    task = next(t for t in json.loads((DOMAINS / "retail" / "tasks.json").read_text()) if t["id"] == "2")
    data = read_domain(DOMAINS / "retail")
    messages = calls_trajectory(task, data, task["evaluation_criteria"]["actions"],
                                " ".join(task["evaluation_criteria"].get("communicate_info") or []) or "Done.")
    trials = [{"trial": 0, "termination_reason": "agent_stop", "messages": messages}]
    return {"id": ["2"], "task": [json.dumps(task)], "domain_folder": [str(DOMAINS / "retail")],
            "trials": [json.dumps(trials)]}


def test_match_asks_the_judge_through_its_journal_and_a_rerun_asks_nothing(tmp_path):
    kind, normalized = get_kind("tau2"), _retail_trial()
    without, info = kind.match(normalized, {"domain": "retail"})
    assert json.loads(without["evaluations"][0])[0]["status"] == "not judged" and info["trials"] == {"not judged": 1}
    with ChatServer() as server:
        server.answer = _scripted("missed")
        params = {"domain": "retail", "ask_judge": JudgeAsker(_judge(server), tmp_path / "j.jsonl")}
        matched, info = kind.match(normalized, params)
        assert len(server.chats()) == 1
        again, _ = kind.match(normalized, params)
        assert len(server.chats()) == 1 and again == matched
    evaluation = json.loads(matched["evaluations"][0])[0]
    assert evaluation["reward"] == 0.0 and info["trials"] == {"scored": 1}
    assert evaluation["components"]["NL_ASSERTION"]["reason"].startswith("the judge found not met: ")


def test_a_dead_judge_or_an_answer_not_json_leaves_the_trial_not_judged_with_why(tmp_path):
    kind, normalized = get_kind("tau2"), _retail_trial()
    dead = ChatServer()
    dead.httpd.server_close()
    params = {"domain": "retail", "ask_judge": JudgeAsker(_judge(dead), tmp_path / "dead.jsonl")}
    evaluation = json.loads(kind.match(normalized, params)[0]["evaluations"][0])[0]
    assert evaluation["status"] == "not judged" and evaluation["reward"] is None
    assert evaluation["components"]["NL_ASSERTION"]["reason"].startswith("no verdict: ")
    assert "Connection refused" in evaluation["components"]["NL_ASSERTION"]["reason"]
    assert nl_component("```json\n{}\n```")["value"] is None
    assert nl_component('{"results": [{"expectedOutcome": "x", "reasoning": "", "metExpectation": "yes"}]}')[
        "value"] is None


def _reworded(reasoning: str, met: bool = True):
    """A judge answering every assertion `met`, in its own words (`reasoning`)."""
    def reply(prompt: str) -> str:
        assertions = ast.literal_eval(prompt.split("expectedOutcomes:\n")[1].strip())
        return json.dumps({"results": [{"expectedOutcome": text, "reasoning": reasoning, "metExpectation": met}
                                       for text in assertions]})
    return reply


def _retail_trials(count: int):
    """The gold trials of the first `count` retail tasks whose rewards rest on NL assertions."""
    data = read_domain(DOMAINS / "retail")
    tasks = [t for t in json.loads((DOMAINS / "retail" / "tasks.json").read_text())
             if "NL_ASSERTION" in (t["evaluation_criteria"].get("reward_basis") or []) and
             t["evaluation_criteria"].get("nl_assertions")][:count]
    return {t["id"]: (calls_trajectory(t, data, t["evaluation_criteria"]["actions"]),
                      t["evaluation_criteria"]["nl_assertions"]) for t in tasks}


def test_judge_recheck_asks_a_share_of_stored_verdicts_again_drawn_by_the_run_and_reads_flips_as_verdicts(tmp_path):
    trials, store = _retail_trials(8), tmp_path / "verdicts.jsonl"
    with ChatServer() as server:
        server.answer = _reworded("first night")
        judge = _judge(server, store=str(store))
        judge_nl_assertions(trials, JudgeAsker(judge, tmp_path / "night0.jsonl", store))
        assert len(server.chats()) == 8
        rechecked = _judge(server, store=str(store), recheck=0.25)
        server.answer = _reworded("second night, other words")  # the same verdicts: no flip
        told = []
        asked = {}
        for night in ("nightly/1", "nightly/2"):
            before = len(server.chats())
            judged, usage = judge_nl_assertions(trials, JudgeAsker(
                rechecked, tmp_path / f"{night.replace('/', '_')}.jsonl", store, recheck_seed=night,
                tell=lambda name, why: told.append((name, why))))
            asked[night] = {chat["body"]["messages"][1]["content"] for chat in server.chats()[before:]}
            assert (usage["asked"], usage["reused"], usage["rechecked"], usage["flips"]) == (2, 6, 2, 0)
            assert all(part["value"] == 1.0 for part in judged.values())
        assert asked["nightly/1"] != asked["nightly/2"] and not told
        server.answer = _reworded("changed its mind", met=False)  # 2 of 2 rechecked flip: distrusted, all asked again
        before = len(server.chats())
        judged, usage = judge_nl_assertions(trials, JudgeAsker(rechecked, tmp_path / "night3.jsonl", store,
                                                               recheck_seed="nightly/3",
                                                               tell=lambda name, why: told.append((name, why))))
        assert len(server.chats()) - before == 8 and usage["flips"] == 2
        assert told == [("gpt-4.1-2025-04-14", "2 of 2 rechecked verdicts flipped (100%, above recheck_max_flips 10%)")]
        assert all(part["value"] == 0.0 for part in judged.values())
