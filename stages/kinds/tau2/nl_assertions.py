"""NL_ASSERTION as tau2 1.0.1 judges it: the conversation (`role: content` lines) and the task's assertions asked of
the [judge] in tau2's prompt, through the judge's journal; 1 when every verdict the judge returns is met, else 0; a
reply that is not tau2's JSON (or a call that failed) leaves the trial not judged, with the reason."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..base import MatchJudge

CRITERION = "nl_assertions"
NL_SYSTEM_PROMPT = """
        TASK
        - You will be given a list of expected outcomes and a conversation that was collected during a test case run.
        - The conversation is between an agent and a customer.
        - Your job is to evaluate whether the agent satisfies each of the expected outcomes.
        - Grade each expected outcome individually.

        FORMAT
        - Your response should be a JSON object with the following fields:
        - `reasoning`: a short explanation for your classification
        - `metExpectation`: `true` if the agent satisfies the expected outcomes, `false` otherwise
        - `expectedOutcome`: repeat the expectation from the input that you are grading
        
        Example response structure:
        {
            "results": [
                {
                    "expectedOutcome": "<one of the expected outcomes from the input>",
                    "reasoning": "<reasoning trace>",
                    "metExpectation": <false or true>,
                }
            ]
        }
        """


@dataclass(frozen=True)
class NLAssertionCall:
    """One trial's assertions asked of one judge model (an AskedCall with its own system prompt)."""

    item: str
    judge: str
    sample: int
    prompt: str
    key: str
    system: str = NL_SYSTEM_PROMPT
    criterion: str = CRITERION

    def verdict(self, reply: str) -> float | None:
        """The reply's NL_ASSERTION value (1, 0, or None when not tau2's JSON): what a recheck compares."""
        return nl_component(reply)["value"]


def _python_text(value: Any) -> str:
    """A message's content as tau2's f-string writes it (Python's str: None for a tool call's empty content)."""
    return "None" if value is None else str(value)


def nl_user_prompt(messages: list[dict[str, Any]], assertions: list[str]) -> str:
    """tau2's user prompt: every message as `role: content`, then the assertions as Python writes a list."""
    trajectory = "\n".join(f"{message.get('role')}: {_python_text(message.get('content'))}" for message in messages)
    return f"""
        conversation:
        {trajectory}
        
        expectedOutcomes:
        {assertions!r}
        """


def nl_calls(trials: dict[str, tuple[list[dict[str, Any]], list[str]]], judge: MatchJudge) -> list[NLAssertionCall]:
    """Per trial (id → its messages and assertions) a call to each judge model and sample."""
    calls = []
    for item, (messages, assertions) in trials.items():
        prompt = nl_user_prompt(messages, assertions)
        for model in judge.models:
            for sample in range(judge.samples):
                key = judge.key(f"{NL_SYSTEM_PROMPT}\n{prompt}", model, sample)
                calls.append(NLAssertionCall(item, model, sample, prompt, key))
    return calls


def nl_component(reply: str) -> dict[str, Any]:
    """The NL_ASSERTION component one reply gives: 1 when every returned verdict is met (none returned is 1, as
    tau2's all() of nothing), 0 naming those not met; value None when the reply is not tau2's JSON."""
    try:
        results = json.loads(reply).get("results", [])
        verdicts = [(str(result["expectedOutcome"]), result["metExpectation"]) for result in results]
    except (json.JSONDecodeError, AttributeError, TypeError, KeyError) as error:
        return {"value": None, "reason": f"the judge's reply is not tau2's JSON ({type(error).__name__}): {reply[:80]!r}"}
    if not all(isinstance(met, bool) for _, met in verdicts):
        return {"value": None, "reason": "the judge's metExpectation is not true or false"}
    missed = [outcome for outcome, met in verdicts if not met]
    if missed:
        return {"value": 0.0, "reason": "the judge found not met: " + "; ".join(missed)}
    return {"value": 1.0, "reason": f"the judge found all {len(verdicts)} met"}


def judge_nl_assertions(trials: dict[str, tuple[list[dict[str, Any]], list[str]]], judge: MatchJudge,
                        ) -> tuple[dict[str, dict[str, Any]], dict[str, int]]:
    """Per trial its NL_ASSERTION component, every call asked through the judge's journal (a rerun asks nothing;
    `budget` may refuse some): 1 only when every judge model and sample found every assertion met; None (not
    judged) when any reply is missing or unparsed, with why. Also what asking took (the judge's usage)."""
    calls = nl_calls(trials, judge)
    records, usage = judge.ask(calls)
    components: dict[str, dict[str, Any]] = {}
    for call in calls:
        record = records.get(call.key, {})
        part = (nl_component(record["prediction"]) if "prediction" in record else
                {"value": None, "reason": f"no verdict: {record.get('error', 'no reply')}"})
        part = {**part, "reason": f"{call.judge}: {part['reason']}"} if len(judge.models) > 1 else part
        before = components.get(call.item)
        if before is None or part["value"] is None or (before["value"] is not None and part["value"] < before["value"]):
            components[call.item] = part
    return components, usage
