"""A tau2 dataset asked live end to end: [generate] is the agent, [user] the user simulator (scripted servers on
127.0.0.1); the gold calls score reward 1 in B4, the report shows the run's user model beside the published board's
user simulators, and a second run asks neither server anything; a task whose initial state cannot be set up is set aside, named, and
the run goes on."""
import json

import pytest

from stages.io.artifacts import read_artifact_json, read_columns
from tests.pipeline.chat_server import ChatServer
from tests.pipeline.workspace import run
from tests.stages.kinds.tau2.test_tau2_live import _agent, _task
from tests.stages.kinds.tau2.trajectories import DOMAINS

pytestmark = pytest.mark.skipif(not DOMAINS.is_dir(), reason="the shared tau2 data is not here")


def _user(message: str) -> str:
    return "Thanks ###STOP###" if "Done" in message else "Please create my task."


def _dataset_toml(agent: ChatServer, user: ChatServer, params: str = "", user_settings: str = "") -> str:
    """A mock dataset asking agent `m` of `agent` (two trials a task) and user model `u` of `user`, no retries."""
    return (f'kind = "tau2"\n[params]\ndomain_folder = "{DOMAINS / "mock"}"\n{params}'
            f'[generate]\nurl = "{agent.url}"\nmodels = ["m"]\nsamples = 2\nretries = 0\n'
            f'[user]\nurl = "{user.url}"\nmodel = "u"\n{user_settings}retries = 0\n')


def test_a_tau2_dataset_asked_of_agent_and_user_servers_scores_and_reruns_asking_nothing(tmp_path):
    task = _task()
    with ChatServer() as agent, ChatServer() as user:
        _agent(agent, task)
        user.answer = _user
        folder = tmp_path / "inputs" / "live"
        folder.mkdir(parents=True)
        (folder / "questions.json").write_text(json.dumps([task]))
        (folder / "board" / "x_org").mkdir(parents=True)
        (folder / "board" / "manifest.json").write_text(json.dumps({"submissions": ["x_org"]}))
        (folder / "board" / "x_org" / "submission.json").write_text(json.dumps(
            {"results": {"mock": {"pass_1": 80.0}}, "methodology": {"user_simulator": "gpt-4.1-2025-04-14"}}))
        (folder / "dataset.toml").write_text(
            _dataset_toml(agent, user, params='leaderboard = "board"\n', user_settings="temperature = 0.0\n"))
        assert run(tmp_path) == 0
        b4 = read_columns(tmp_path / "outputs" / "live" / "m" / "B4_matches.json")
        assert json.loads(b4["rewards"][0]) == [1.0, 1.0]
        text = (tmp_path / "outputs" / "live" / "B6_report.txt").read_text(encoding="utf-8")
        rows = {line.split()[0]: line.split()[1:] for line in text.splitlines() if line.startswith(("x_org", "m ("))}
        assert rows["m"][:4] == ["(this", "run)", "—", "u"] and rows["x_org"][:2] == ["?", "gpt-4.1-2025-04-14"]
        assert "m: user simulator u, not the board's gpt-4.1: not comparable" in text
        report = json.loads((tmp_path / "outputs" / "live" / "B6_report.json").read_text(encoding="utf-8"))
        assert report["report"]["generation"]["m"]["user"]["model"] == "u"
        asked = (len(agent.chats()), len(user.chats()))
        assert asked[0] > 0 and asked[1] > 0
        assert run(tmp_path) == 0
        assert (len(agent.chats()), len(user.chats())) == asked


def test_a_task_whose_initial_state_cannot_be_set_up_is_set_aside_and_the_rest_scored(tmp_path):
    task = _task()
    broken = {**task, "id": "update_task_with_initialization_data",  # an id of the split, its agent_data a list
              "initial_state": {"initialization_data": {"agent_data": [{"tasks": {}}]}}}
    with ChatServer() as agent, ChatServer() as user:
        _agent(agent, task)
        user.answer = _user
        folder = tmp_path / "inputs" / "live"
        folder.mkdir(parents=True)
        (folder / "questions.json").write_text(json.dumps([broken, task]))
        (folder / "dataset.toml").write_text(_dataset_toml(agent, user))
        assert run(tmp_path) == 0
    b4 = read_columns(tmp_path / "outputs" / "live" / "m" / "B4_matches.json")
    assert list(zip(b4["id"], b4["status"], b4["rewards"])) == [  # the task set aside: missing, with no trials
        ("update_task_with_initialization_data", "missing", "[]"), (task["id"], "correct", "[1.0, 1.0]")]
    (b2,) = (tmp_path / "outputs" / "live" / "m").glob("B2_*.json")
    rejects = read_artifact_json(b2)["rejects"]
    assert [(r["location"], r["reason"]) for r in rejects] == [
        ("update_task_with_initialization_data", "its 2 trial(s) not asked: cannot set up the initial state (tau2 fails "
         "too): initialization_data's agent_data is a list, not tables of records")]
