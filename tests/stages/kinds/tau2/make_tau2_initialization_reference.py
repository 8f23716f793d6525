"""Writes tau2_reference/initialization_data.json: what tau2-bench 1.0.1 says of telecom tasks with
`initialization_data` (none shipped has it; not part of the suite). Its Environment.set_state, after applying
agent_data, hands the user's tools the agent's database (after user_data, the agent's tools the user's), so the
phone's sync or the agent's initialization actions then read the wrong database and evaluate_simulation fails. The
small split's first task is given agent_data (line L1001 whole, in tau2's TelecomDB shape, and keyed by id), user_data, or both, and
scored on a trial that only says "Done.":

    TAU2_DATA_DIR=/work/tau2-data /work/tau2-venv/bin/python tests/stages/kinds/tau2/make_tau2_initialization_reference.py
"""
from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

from tau2.data_model.message import AssistantMessage
from tau2.data_model.simulation import TerminationReason
from tau2.data_model.tasks import Task
from tau2.evaluator.evaluator import EvaluationType
from tau2.registry import registry

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_tau2_telecom_reference import FOLDER, score  # noqa: E402

OUT = Path(__file__).resolve().parent / "tau2_reference" / "initialization_data.json"
LINE = {**registry.get_env_constructor("telecom")().tools.db.lines[0].model_dump(mode="json"), "data_used_gb": 3}
CASES = {"agent_data as tau2's TelecomDB": {"agent_data": {"lines": [LINE]}},
         "agent_data keyed by id": {"agent_data": {"lines": {"L1001": {"data_used_gb": 3}}}},
         "user_data": {"user_data": {"device": {"roaming_enabled": True}}},
         "both": {"agent_data": {"lines": [LINE]}, "user_data": {"device": {"roaming_enabled": True}}}}


def main() -> None:
    base = json.loads((FOLDER / "tasks_small.json").read_text())[0]
    cases = []
    for name, data in CASES.items():
        raw = copy.deepcopy(base)
        raw["initial_state"]["initialization_data"] = data
        try:
            outcome = {"reward": score(Task.model_validate(raw), [AssistantMessage(role="assistant", content="Done.")],
                                       TerminationReason.USER_STOP, EvaluationType.ALL)[0]}
        except Exception as error:  # tau2's evaluator raising is its answer here
            outcome = {"raised": f"{type(error).__name__}: {error}"}
        if isinstance(outcome.get("reward"), str):  # score() turns a ValueError into "error: ..."
            outcome = {"raised": outcome["reward"]}
        cases.append({"case": name, "task": raw, **outcome})
    OUT.write_text(json.dumps({"tool": "tau2 1.0.1 evaluate_simulation", "cases": cases}, indent=1) + "\n")
    print([(case["case"], case.get("reward"), case.get("raised", "")[:80]) for case in cases], file=sys.stderr)


if __name__ == "__main__":
    main()
