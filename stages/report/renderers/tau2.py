"""tau2 items: each trial as a transcript (the user simulator's turns, the agent's messages, each tool call with its
arguments and result), its reward with each component and its reason, the termination reason and where the
database ended otherwise than the gold actions leave it."""
from __future__ import annotations

import json
import re
from typing import Any, ClassVar

from ...kinds.tau2.leaderboard import BOARD_TRIALS, run_caveat, run_user, user_caveat
from . import READABLE_REPLY, ItemRenderer, register_renderer

ACTION = re.compile(r"([\w.]+)\(")  # a gold action's name, before its JSON arguments
TEXT_CAP = 300  # characters of a message or a call's arguments shown (the page's size budget)
RESULT_CAP = 160  # characters of a call's result shown: its JSON records are most of a transcript's size


@register_renderer("tau2")
class EpisodeRenderer(ItemRenderer):
    view: ClassVar[str] = "episodes"
    normalized_columns: ClassVar[tuple[str, ...]] = ("trials",)

    def fields(self, matched: dict[str, Any]) -> dict[str, Any]:
        evaluations = json.loads(matched.get("evaluations") or "[]")
        trials = json.loads(matched.get("trials") or "[]")
        shown = [{"trial": e.get("trial"), "reward": e.get("reward"), "status": e.get("status") or "",
                  "termination_reason": e.get("termination_reason") or "", "note": e.get("note") or "",
                  "components": [{"name": name, "value": part.get("value"), "reason": part.get("reason") or ""}
                                 for name, part in (e.get("components") or {}).items()],
                  "db_difference": [str(place) for place in e.get("db_difference") or []],
                  "turns": transcript(trial.get("messages") or [])}
                 for e, trial in zip(evaluations, trials)]
        return {"trials": shown, **({READABLE_REPLY: trials_line(shown)} if shown else {})}


    def gold(self, golds: Any) -> Any:
        """B1's gold actions (`name({JSON arguments}); …`) as calls, `name(key="value", …)`."""
        return [gold_actions(gold) if isinstance(gold, str) else gold for gold in golds] if isinstance(golds, list) \
            else golds

    def figure_tables(self, report: dict[str, Any]) -> list[dict[str, Any]]:
        """The run's pass^k per model with the user simulator its trials were asked with (its `[user]` model), and
        each published board it names, the run's models beside the board's submissions, with their caveats."""
        models, generation = report["models"], report.get("generation") or {}
        users = {model: run_user(generation.get(model)) for model in models}
        ks = [str(k) for k in range(1, max([BOARD_TRIALS, *(int(k) for m in models.values()
                                                            for k in m.get("pass_hat_k") or {})]) + 1)]
        own = {"title": "pass^k over tasks (τ²-bench's figures)",
               "columns": ["model", "user simulator", "tasks", "trials", *(f"pass^{k}" for k in ks), "avg reward"],
               "rows": [[model, users[model] or "not recorded", m.get("tasks"), m.get("trials"),
                         *({"share": (m.get("pass_hat_k") or {}).get(k),
                            "interval": (m.get("intervals") or {}).get(k)} for k in ks),
                         {"share": m.get("avg_reward"), "interval": None}] for model, m in models.items()],
               "notes": []}
        boards = {(b["domain"], b["folder"]): b for m in models.values() for b in m.get("boards") or []}
        tables = [own]
        for (domain, _), board in sorted(boards.items()):
            own["notes"] = [f"{model}: {note}" for model, m in models.items()
                            for note in (run_caveat(m), user_caveat(users[model])) if note]
            tables.append({"title": f"published τ²-bench board, {domain} ({len(board['submissions'])} submissions)",
                           "columns": ["submission", "tau2", "user simulator", *(f"pass^{k}" for k in ks[:4])],
                           "rows": [[f"{model} (this run)", "—", users[model] or "not recorded",
                                     *({"share": (m.get("pass_hat_k") or {}).get(k), "interval": None}
                                       for k in ks[:4])] for model, m in models.items()]
                           + [[entry["submission"], str(entry["tau2_version"] or "?"),
                               str(entry["user_simulator"] or "?"),
                               *({"share": entry["pass_hat_k"].get(k), "interval": None} for k in ks[:4])]
                              for entry in board["submissions"]],
                           "notes": [board["caveat"], *board["set_aside"]]})
        return tables


def gold_actions(text: str) -> str:
    """tau2's gold actions as B1 writes them (`name({JSON}); …`) with each action's arguments as `key="value"`; text
    not of that form (`(no actions)`) as it is."""
    decoder, shown, at = json.JSONDecoder(), [], 0
    while at < len(text):
        found = ACTION.match(text, at)
        try:
            arguments, end = decoder.raw_decode(text, found.end()) if found else (None, at)
        except ValueError:
            return text
        if not isinstance(arguments, dict) or text[end:end + 1] != ")":
            return text
        named = (f"{key}={json.dumps(value, ensure_ascii=False)}" for key, value in arguments.items())
        shown.append(f"{found.group(1)}({', '.join(named)})")
        at = end + 1 + (2 if text.startswith("; ", end + 1) else 0)
    return "; ".join(shown) or text


def trials_line(trials: list[dict[str, Any]]) -> str:
    """The explorer's reply of a tau2 item, in place of its trials' JSON: each trial's termination and reward."""
    return "; ".join(f"trial {t['trial']}: {t['termination_reason'] or 'no termination reason'}, "
                     f"{t['status'] if t['reward'] is None else 'reward ' + format(t['reward'], 'g')}, "
                     f"{len(t['turns'])} turns" for t in trials)


def transcript(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A trial's messages as turns (role, text, calls): a tool message is the result of the call of the latest
    calling message with its id (else the first still without one), shown as a turn of its own when none waits."""
    turns: list[dict[str, Any]] = []
    waiting: list[dict[str, Any]] = []
    for message in messages:
        role = str(message.get("role") or "")
        if role == "tool":
            call = next((c for c in waiting if c["id"] == message.get("id") and c["result"] is None),
                        next((c for c in waiting if c["result"] is None), None))
            if call is not None:
                call.update(result=_cut(message.get("content"), RESULT_CAP), error=bool(message.get("error")))
                continue
            turns.append({"role": role, "text": _cut(message.get("content")), "calls": []})
            continue
        calls = [{"id": call.get("id"), "name": str(call.get("name") or ""),
                  "arguments": _cut(json.dumps(call.get("arguments") or {}, ensure_ascii=False)),
                  "result": None, "error": False} for call in message.get("tool_calls") or []]
        waiting = calls or waiting
        turns.append({"role": role, "text": _cut(message.get("content")), "calls": calls})
    for turn in turns:
        for call in turn["calls"]:
            call.pop("id")
    return turns


def _cut(text: Any, cap: int = TEXT_CAP) -> str:
    text = "" if text is None else text if isinstance(text, str) else json.dumps(text, ensure_ascii=False)
    return text if len(text) <= cap else text[:cap] + "…"
