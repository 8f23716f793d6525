"""Writes the tool schemas tau2-bench 1.0.1 sends its agent and user simulator (not part of the suite): for each
domain evalpipe runs, tau2's own `Tool.openai_schema` of every agent tool and every user tool, in tau2's order, into
stages/kinds/tau2/tool_schemas/<domain>.json ({"agent": [...], "user": [...]}) — data tau2 generates from its
functions' signatures and docstrings, kept so a run with no tau2 installed sends the same tools.

    TAU2_DATA_DIR=/work/tau2-data /work/tau2-venv/bin/python tests/stages/kinds/tau2/make_tau2_tool_schemas.py
"""
from __future__ import annotations

import json
from pathlib import Path

from tau2.registry import registry

OUT = Path(__file__).resolve().parents[4] / "stages" / "kinds" / "tau2" / "tool_schemas"


def main() -> None:
    for domain in ("retail", "telecom", "mock"):
        env = registry.get_env_constructor(domain)()
        schemas = {"agent": [tool.openai_schema for tool in env.get_tools()],
                   "user": [tool.openai_schema for tool in env.get_user_tools()] if env.user_tools else []}
        (OUT / f"{domain}.json").write_text(json.dumps(schemas, indent=1, ensure_ascii=False) + "\n",
                                            encoding="utf-8")


if __name__ == "__main__":
    main()
