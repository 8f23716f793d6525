"""Writes the system prompts tau2-bench 1.0.1 gives its agent and user simulator (not part of the suite): per domain
the sha256 of LLMAgent's system prompt over its policy.md, per task the sha256 of UserSimulator's system prompt with
str(task.user_scenario) and the user tools tau2 offers for the task (mock's: its guidelines with tools), into tau2_reference/prompts.json — tau2's own objects build them; evalpipe's must match.

    TAU2_DATA_DIR=/work/shared/data/real /work/tau2-venv/bin/python tests/stages/kinds/tau2/make_tau2_prompts.py
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from tau2.agent.llm_agent import LLMAgent
from tau2.data_model.tasks import Task
from tau2.registry import registry
from tau2.user.user_simulator import UserSimulator

OUT = Path(__file__).resolve().parent / "tau2_reference" / "prompts.json"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def main() -> None:
    domains = Path(os.environ["TAU2_DATA_DIR"]) / "tau2" / "domains"
    found: dict[str, dict[str, str]] = {"agent": {}, "user": {}}
    for domain in ("retail", "mock"):
        policy = (domains / domain / "policy.md").read_text(encoding="utf-8")
        found["agent"][domain] = _digest(LLMAgent(tools=[], domain_policy=policy, llm="none").system_prompt)
        for record in json.loads((domains / domain / "tasks.json").read_text(encoding="utf-8")):
            task = Task.model_validate(record)
            environment = registry.get_env_constructor(domain)()
            try:
                tools = environment.get_user_tools(include=task.user_tools) or None
            except ValueError:  # a domain without user tools (build_user's rule)
                tools = None
            found["user"][f"{domain}/{record['id']}"] = _digest(UserSimulator(
                llm="none", instructions=str(task.user_scenario), tools=tools).system_prompt)
    OUT.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
