"""A tau2 episode's own overhead per step, beyond the two servers': tau2's tasks asked live (stages.kinds.tau2.live,
one trial at a time) of a scripted agent server and a scripted user server on 127.0.0.1 that answer at once. Each
server times its own handling of every request (reading it, parsing, answering, writing); a step is a message of the
trajectory after the greeting or the task's message history (a user or agent reply, or the environment's answer). Overhead per step = (the
episodes' wall time − both servers' handling) / steps: building each side's view and request, the HTTP client, the
journal (an fsynced append per reply), the domain's tools. Target: ≤ 5 ms per step (issue 79, item 7).

Scenarios: every mock task and every retail task, the agent making the task's gold calls one per request then saying
"Done." (the user asks, then stops); and one long retail conversation, the agent reading an order 95 times before
"Done." (193 steps, under tau2's 200), to show how the overhead grows with the conversation's length (each
request carries the whole conversation, as tau2's do).

Usage: python3 bench/bench_tau2_steps.py [--journal-dir DIR]  (TAU2_DATA_DIR as for the tau2 tests; the journals
are written under DIR, the system's temporary folder by default)."""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from stages.chat.generation import GenerateConfig  # noqa: E402
from stages.kinds.tau2.live import ask_trials  # noqa: E402
from tests.stages.kinds.tau2.trajectories import DOMAINS  # noqa: E402

TARGET_MS = 5.0
LONG_READS = 95  # 2 steps each: with the greeting, the user's two and the agent's "Done.", 193


class ScriptedServer:
    """An OpenAI chat endpoint on 127.0.0.1 answering `reply(messages)` (text, or a list of tool calls) at once,
    keeping the connection open (HTTP/1.1), and adding up the seconds it spent handling requests."""

    def __init__(self, reply: Callable[[list[dict]], Any]) -> None:
        self.handling, self.requests, self.lock = 0.0, 0, threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                started = time.perf_counter()
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                answer = reply(body["messages"])
                message = ({"role": "assistant", "content": None, "tool_calls": answer} if isinstance(answer, list)
                           else {"role": "assistant", "content": answer})
                data = json.dumps({"model": body["model"], "choices": [{"index": 0, "message": message,
                                                                         "finish_reason": "stop"}],
                                   "usage": {"prompt_tokens": 1, "completion_tokens": 1}}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                self.wfile.flush()
                with server.lock:
                    server.handling += time.perf_counter() - started
                    server.requests += 1

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


MARK_OPEN = "<<bench task "  # MARK_OPEN + id + ">>" in each task's persona: the user simulator names its task


def gold_agent(actions_by_task: dict[str, list[dict]]) -> Callable[[list[dict]], Any]:
    """The agent: the task's gold calls (the task the user names) one per request, then "Done."."""
    def reply(messages: list[dict]) -> Any:
        asked = next(m["content"] for m in messages if m["role"] == "user" and  # past a task's message history
                     (m["content"] or "").startswith("Please help with "))
        actions = actions_by_task[asked.removeprefix("Please help with ")]
        done = sum(message["role"] == "tool" for message in messages)
        if done >= len(actions):
            return "Done."
        return [{"id": f"call_{done}", "type": "function",
                 "function": {"name": actions[done]["name"], "arguments": json.dumps(actions[done]["arguments"])}}]
    return reply


def user(messages: list[dict]) -> str:
    """The user: names its task (from the mark in its prompt), then stops when the agent says it is done."""
    if "Done." in (messages[-1]["content"] or ""):
        return "Thanks ###STOP###"
    return "Please help with " + messages[0]["content"].split(MARK_OPEN, 1)[1].split(">>", 1)[0]


def scenario(name: str, tasks: list[dict], domain: str, journal_dir: Path) -> dict[str, Any]:
    """Every task of `tasks` asked once of the scripted servers: steps, wall time, both servers' handling."""
    for task in tasks:
        task["user_scenario"]["persona"] = f"{task['user_scenario'].get('persona') or ''} {MARK_OPEN}{task['id']}>>"
    agent = ScriptedServer(gold_agent({t["id"]: agent_actions(t) for t in tasks}))
    simulator = ScriptedServer(user)
    questions = {"id": [t["id"] for t in tasks], "task": [json.dumps(t) for t in tasks],
                 "domain_folder": [str(DOMAINS / domain)] * len(tasks)}
    config = {"protocol": "openai", "retries": 0, "backoff": 0, "concurrency": 1}
    started = time.perf_counter()
    loaded, _ = ask_trials(questions, GenerateConfig(url=agent.url, models=("agent",), **config),
                           GenerateConfig(url=simulator.url, models=("user",), **config), "agent",
                           journal_dir / f"{name}.jsonl")
    wall = time.perf_counter() - started
    agent.close()
    simulator.close()
    trials = [trial for text in loaded.columns["prediction"] for trial in json.loads(text)]
    history = {t["id"]: len((t.get("initial_state") or {}).get("message_history") or []) or 1 for t in tasks}
    steps = sum(len(trial["messages"]) - history[task_id] for task_id, text in
                zip(loaded.columns["id"], loaded.columns["prediction"]) for trial in json.loads(text))
    handling = agent.handling + simulator.handling
    return {"scenario": name, "trials": len(trials), "set aside": len(loaded.rejects), "steps": steps,
            "requests": agent.requests + simulator.requests, "wall_s": wall, "servers_s": handling,
            "per_step_ms": (wall - handling) / steps * 1000 if steps else float("nan"),
            "ends": dict(Counter(trial["termination_reason"] for trial in trials))}


def agent_actions(task: dict[str, Any]) -> list[dict[str, Any]]:
    """The task's gold actions the agent makes (not the user's)."""
    actions = (task.get("evaluation_criteria") or {}).get("actions") or []
    return [action for action in actions if action.get("requestor", "assistant") == "assistant"]


def long_retail_task() -> dict[str, Any]:
    """A retail task whose agent reads the order of its first gold call LONG_READS times (then says "Done.")."""
    task = next(t for t in read_tasks("retail") if any("order_id" in a["arguments"] for a in agent_actions(t)))
    order = next(a["arguments"]["order_id"] for a in agent_actions(task) if "order_id" in a["arguments"])
    task["evaluation_criteria"]["actions"] = [{"name": "get_order_details", "arguments": {"order_id": order}}] * LONG_READS
    return task


def read_tasks(domain: str) -> list[dict[str, Any]]:
    return json.loads((DOMAINS / domain / "tasks.json").read_text())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--journal-dir", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.journal_dir) as folder:
        rows = [scenario("mock, every task", read_tasks("mock"), "mock", Path(folder)),
                scenario("retail, every task", read_tasks("retail"), "retail", Path(folder)),
                scenario(f"retail, {LONG_READS} reads", [long_retail_task()], "retail", Path(folder))]
    print(f"{'scenario':<22}{'trials':>7}{'steps':>7}{'requests':>9}{'wall s':>9}{'servers s':>10}"
          f"{'ms/step':>9}  ends")
    for row in rows:
        print(f"{row['scenario']:<22}{row['trials']:>7}{row['steps']:>7}{row['requests']:>9}{row['wall_s']:>9.2f}"
              f"{row['servers_s']:>10.2f}{row['per_step_ms']:>9.2f}  {row['ends']}"
              + (f" ({row['set aside']} set aside)" if row["set aside"] else ""))
    worst = max(row["per_step_ms"] for row in rows)
    print(f"\nworst overhead per step {worst:.2f} ms (target ≤ {TARGET_MS:.0f} ms): "
          f"{'met' if worst <= TARGET_MS else 'NOT met'}")


if __name__ == "__main__":
    main()
