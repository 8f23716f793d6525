"""`evalpipe export tau2`: a run asked of scripted agent and user servers on 127.0.0.1 (three mock tasks, two trials
each: the agent makes create_task_1's gold call in every task, so right there and a database left otherwise in the
other two) written as tau2's results file — the file committed as
tau2_reference/exported_mock.json, which tau2 1.0.1's own `tau2 evaluate-trajs` loads and rescores to the rewards
in tau2_reference/export_rescored.json (make_tau2_export_check.py, in tau2's venv): evalpipe's equal them."""
import json
import sys
from pathlib import Path

import pytest

from pipeline.cli import main
from tests.pipeline.chat_server import ChatServer
from tests.pipeline.kinds.tau2_runs import exported_results, trial_rewards
from tests.pipeline.workspace import run
from tests.stages.kinds.tau2.test_tau2_live import _agent
from tests.stages.kinds.tau2.trajectories import DOMAINS

pytestmark = pytest.mark.skipif(not DOMAINS.is_dir(), reason="the shared tau2 data is not here")
REFERENCE = Path(__file__).resolve().parents[2] / "stages" / "kinds" / "tau2" / "tau2_reference"
TASKS = ("create_task_1", "update_task_1", "impossible_task_1")


def _user(message: str) -> str:
    return "Thanks ###STOP###" if "Done" in message else "Please create my task."


def exported_run(workspace: Path) -> dict:
    """The run's tau2 results file, its timestamps blanked (they say when the run was made)."""
    tasks = [t for t in json.loads((DOMAINS / "mock" / "tasks.json").read_text()) if t["id"] in TASKS]
    with ChatServer() as agent, ChatServer() as user:
        _agent(agent, tasks[0])  # every task gets create_task_1's gold call, then "Done."
        user.answer = _user
        folder = workspace / "inputs" / "mock"
        folder.mkdir(parents=True)
        (folder / "questions.json").write_text(json.dumps(tasks))
        (folder / "dataset.toml").write_text(
            f'kind = "tau2"\n[params]\ndomain_folder = "{DOMAINS / "mock"}"\n'
            f'[generate]\nurl = "{agent.url}"\nmodels = ["agent-m"]\nsamples = 2\nretries = 0\n'
            f'[user]\nurl = "{user.url}"\nmodel = "user-u"\ntemperature = 0.0\nretries = 0\n')
        assert run(workspace) == 0
    return exported_results(workspace, "mock")


def test_the_exported_run_is_tau2s_file_and_tau2s_evaluate_trajs_gives_evalpipes_rewards(tmp_path):
    results = exported_run(tmp_path)
    assert results == json.loads((REFERENCE / "exported_mock.json").read_text())
    assert results["info"]["agent_info"]["llm"] == "agent-m" and results["info"]["user_info"]["llm"] == "user-u"
    ours = trial_rewards(tmp_path / "outputs" / "mock" / "agent-m" / "B4_matches.json")
    rescored = json.loads((REFERENCE / "export_rescored.json").read_text())
    assert ours == rescored["rewards"] == {f"{s['task_id']}/{s['trial']}": s["reward_info"]["reward"]
                                          for s in results["simulations"]}
    assert sorted(set(ours.values())) == [0.0, 1.0]
    assert rescored["rewritten"] == []  # tau2's Results model loads and dumps the export back as written


def test_export_of_a_dataset_of_another_kind_or_never_run_says_so(tmp_path, capsys):
    assert main(["export", "tau2", "--outputs", str(tmp_path), "--dataset", "none", "--model", "m"]) == 2
    assert "run `evalpipe run` first" in capsys.readouterr().err


if __name__ == "__main__":  # writes the fixture tau2 rescores: python -m tests.pipeline.kinds.test_tau2_export DIR
    (REFERENCE / "exported_mock.json").write_text(json.dumps(exported_run(Path(sys.argv[1])), indent=1) + "\n")
