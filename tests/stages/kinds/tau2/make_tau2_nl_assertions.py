"""Writes what tau2-bench 1.0.1 asks its NL-assertion judge and the reward it gives (not part of the suite).

    TAU2_DATA_DIR=/work/tau2-data /work/tau2-venv/bin/python tests/stages/kinds/tau2/make_tau2_nl_assertions.py

For every retail task whose reward_basis names NL_ASSERTION: the gold calls (and, where the task writes, the gold
calls with the last write dropped) as make_tau2_reference.py makes them, ended by the agent; tau2's evaluate_simulation
(evaluation type ALL) is run with its LLM call replaced by a scripted judge that answers in tau2's JSON — every
assertion met ("met"), the first one not met ("missed"), no results at all ("empty"). tau2_reference/nl_assertions.jsonl
keeps per trajectory the sha256 of the system and user prompts tau2 sent the judge, the judge model and temperature it
asked, and tau2's reward for each scripted answer."""
from __future__ import annotations

import hashlib
import json
import sys

import tau2.evaluator.evaluator_nl_assertions as nl_module
from make_tau2_reference import DOMAINS, OUT, trajectory
from tau2.data_model.message import AssistantMessage
from tau2.data_model.simulation import SimulationRun, TerminationReason
from tau2.data_model.tasks import Task
from tau2.evaluator.evaluator import EvaluationType, evaluate_simulation
from tau2.registry import registry

ANSWERS = ("met", "missed", "empty")


def scripted_reply(answer: str, assertions: list[str]) -> str:
    """The judge's JSON: each assertion met, the first one not met, or no results."""
    if answer == "empty":
        return json.dumps({"results": []})
    return json.dumps({"results": [{"expectedOutcome": text, "reasoning": "scripted",
                                    "metExpectation": not (answer == "missed" and number == 0)}
                                   for number, text in enumerate(assertions)]})


def main() -> None:
    asked: list[dict] = []
    state = {"answer": "met", "assertions": []}

    def generate(model, messages, call_name, **settings):
        asked.append({"model": model, "settings": settings, "system": messages[0].content,
                      "user": messages[1].content})
        return AssistantMessage(role="assistant", content=scripted_reply(state["answer"], state["assertions"]))

    nl_module.generate = generate
    env = registry.get_env_constructor("retail")()
    lines = []
    for raw in json.loads((DOMAINS / "retail" / "tasks.json").read_text()):
        criteria = raw["evaluation_criteria"]
        if "NL_ASSERTION" not in criteria.get("reward_basis", []) or not criteria.get("nl_assertions"):
            continue
        task = Task.model_validate(raw)
        actions = criteria.get("actions") or []
        closing = " ".join(criteria.get("communicate_info") or []) or "Done."
        writes = [i for i, a in enumerate(actions) if env.tools.tool_mutates_state(a["name"])]
        variants = {"gold": actions, **({"dropped": [a for i, a in enumerate(actions) if i != writes[-1]]}
                                        if writes else {})}
        for variant, calls in variants.items():
            messages = trajectory("retail", task, calls, closing)[0]
            run = SimulationRun(id="x", task_id=task.id, start_time="", end_time="", duration=0.0,
                                termination_reason=TerminationReason.AGENT_STOP, messages=messages, trial=0,
                                timestamp="", agent_cost=0.0, user_cost=0.0, reward_info=None)
            rewards = {}
            for answer in ANSWERS:
                state.update(answer=answer, assertions=criteria["nl_assertions"])
                asked.clear()
                rewards[answer] = evaluate_simulation(run, task, EvaluationType.ALL, solo_mode=False,
                                                      domain="retail", strict_replay=False).reward
            (call,) = asked
            lines.append({"task": task.id, "variant": variant, "calls": calls, "closing": closing,
                          "system_sha256": hashlib.sha256(call["system"].encode()).hexdigest(),
                          "user_sha256": hashlib.sha256(call["user"].encode()).hexdigest(),
                          "judge": call["model"], "settings": call["settings"], "rewards": rewards})
    (OUT / "nl_assertions.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    print(f"{len(lines)} trajectories judged", file=sys.stderr)


if __name__ == "__main__":
    main()
