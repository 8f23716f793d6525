"""The agent's and the user simulator's system prompts are tau2 1.0.1's, to the byte: evalpipe's prompts against
the digests of those tau2's own LLMAgent and UserSimulator build (tau2_reference/prompts.json, make_tau2_prompts.py)
for both domains' policies and all 124 tasks' scenarios (mock's user, offered its tools, with tau2's guidelines for a
user with tools)."""
import hashlib
import json
from pathlib import Path

import pytest

from stages.kinds.tau2.conversation import agent_system_prompt, user_system_prompt
from stages.kinds.tau2.domains import DOMAINS as EVALPIPE_DOMAINS
from stages.kinds.tau2.live import GUIDELINES, GUIDELINES_TOOLS, offered_user_tools, user_scenario_text
from tests.stages.kinds.tau2.trajectories import DOMAINS

pytestmark = pytest.mark.skipif(not DOMAINS.is_dir(), reason="the shared tau2 data is not here")
REFERENCE = json.loads((Path(__file__).parent / "tau2_reference" / "prompts.json").read_text(encoding="utf-8"))


def _digest(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@pytest.mark.parametrize("domain", ["retail", "mock"])
def test_the_agent_and_user_prompts_are_tau2s(domain):
    policy = (DOMAINS / domain / "policy.md").read_text(encoding="utf-8")
    assert _digest(agent_system_prompt(policy)) == REFERENCE["agent"][domain]
    tasks = json.loads((DOMAINS / domain / "tasks.json").read_text(encoding="utf-8"))
    has_user_tools = EVALPIPE_DOMAINS[domain].user_tools is not None
    guidelines = {tools: (DOMAINS.parent / (GUIDELINES_TOOLS if tools else GUIDELINES)).read_text(encoding="utf-8")
                  for tools in (False, True)}
    differing = [task["id"] for task in tasks if _digest(user_system_prompt(
        guidelines[offered_user_tools(domain, has_user_tools, task.get("user_tools")) is not None],
        user_scenario_text(task["user_scenario"]))) != REFERENCE["user"][f"{domain}/{task['id']}"]]
    assert not differing and len(tasks) == sum(key.startswith(f"{domain}/") for key in REFERENCE["user"])
