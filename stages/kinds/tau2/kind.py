"""The tau2 kind: τ²-bench's tasks, each model's trials (trajectories) scored as tau2 1.0.1 scores them — reward per
trial, pass^k over trials, average reward — with the trials not judged (NL assertions without a judge) counted."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from ...core.records import Columns, LoadResult
from ...core.stats import Stats
from ...core.text_table import format_table, percent
from ..base import Kind, Recognition, every_record_has, rank_models, register_kind
from .domains import DATABASE_FILES, read_domain
from .evaluation import NOT_JUDGED, evaluate
from .leaderboard import read_board, run_caveat, run_user, user_caveat
from .live import ask_trials
from .nl_assertions import judge_nl_assertions
from .pass_k import INFRASTRUCTURE_ERROR, is_success, task_pass_hat_ks, trial_figures
from .tasks import load_tasks, load_trials

BOARD_TRIALS = 4  # the trials per task the published board compares: pass^1 … pass^4 per task in B5
ALL_TASKS = "all"  # the split of a run over every task of its file (`split = ""`, or no split_tasks.json)


@register_kind("tau2")
class Tau2(Kind):
    """Agents over whole conversations, scored as tau2-bench 1.0.1's evaluator and metrics score them."""

    defaults = {"domain_folder": "", "domain": "", "split": "base", "leaderboard": ""}
    stage_params = {"B1": ("domain_folder", "domain", "split", "leaderboard"), "B4": ("domain", "split")}
    question_columns = ("task", "domain_folder", "leaderboard")
    prediction_columns = ("trials",)
    paired_metrics = {f"pass_hat_{k}": "mean" for k in range(1, BOARD_TRIALS + 1)}  # per task, for the nightly
    status_column = "status"
    asks_user = True
    match_asks_judge = True

    def recognize(self, records: list[dict], dataset_name: str) -> Recognition:
        """tau2's tasks: every record carries `user_scenario` and `evaluation_criteria`."""
        return (Recognition.FIELDS if every_record_has(records, "user_scenario", "evaluation_criteria")
                else Recognition.NO)

    def load_gold(self, path: Path, fields: dict[str, str | None], rows: range | None = None,
                  params: dict[str, Any] | None = None) -> LoadResult:
        return load_tasks(path, params or self.defaults)

    def gold_files(self, params: dict[str, Any]) -> list[str]:
        """The domain's db.json (telecom's db.toml; the one there is read), fingerprinted with the tasks when the
        domain folder is the dataset's or named relative to it (an import names tau2's shipped folder by its absolute
        path: not fingerprinted)."""
        folder = params.get("domain_folder") or ""
        return [] if Path(folder).is_absolute() else [str(Path(folder) / name) for name in DATABASE_FILES]

    def ask(self, questions: Columns, config: Any, model: str, journal: Path,
            user: Any = None) -> tuple[LoadResult, dict[str, Any]]:
        return ask_trials(questions, config, user, model, journal)

    def load_predictions(self, path: Path, fields: dict[str, str | None], rows: range | None = None) -> LoadResult:
        return load_trials(path)

    def normalize(self, joined: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        """B3: each task with its trials (none when the model has no trajectory for it)."""
        trials = [json.loads(text) if text else [] for text in joined["prediction"]]
        normalized = {"id": joined["id"], "task": joined["task"], "domain_folder": joined["domain_folder"],
                      "leaderboard": joined.get("leaderboard") or [""] * len(trials),
                      "trials": [json.dumps(t, ensure_ascii=False) for t in trials]}
        return normalized, {"without_trials": sum(not t for t in trials), "trials": sum(map(len, trials))}

    def match(self, normalized: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        """B4: per task each trial's evaluation — reward, components with reasons, termination, steps, where the
        database differs from the gold one — and the file's own reward beside it when it has one."""
        matched: Columns = {name: [] for name in ("id", "evaluations", "rewards", "status", "domain", "split",
                                                   "leaderboard")}
        statuses: Counter = Counter()
        rows = [(task_id, json.loads(task_text), read_domain(Path(folder), params.get("domain") or ""),
                 json.loads(trials_text)) for task_id, task_text, folder, trials_text in zip(
                     normalized["id"], normalized["task"], normalized["domain_folder"], normalized["trials"])]
        judged, usage = self._judged(rows, params)
        boards = normalized.get("leaderboard") or [""] * len(rows)
        for (task_id, task, data, trials), board, folder in zip(rows, boards, normalized["domain_folder"]):
            evaluations = []
            for number, trial in enumerate(trials):
                evaluation = evaluate(task, data, trial["messages"], trial["termination_reason"],
                                      judged.get(_trial_key(task_id, number))).to_dict()
                evaluation.update(trial=trial.get("trial", number), termination_reason=trial["termination_reason"],
                                  steps=len(trial["messages"]), file_reward=trial.get("reward"))
                if trial.get("problem"):
                    evaluation["note"] = f"{evaluation['note']} ({trial['problem']})"
                evaluations.append(evaluation)
                statuses[evaluation["status"]] += 1
            matched["id"].append(task_id)
            matched["evaluations"].append(json.dumps(evaluations, ensure_ascii=False))
            matched["rewards"].append(json.dumps([e["reward"] for e in evaluations]))
            matched["status"].append(_status(evaluations))
            matched["domain"].append(data.domain.name)
            matched["split"].append(_split_scored(Path(folder), params.get("split") or ""))
            matched["leaderboard"].append(board or "")
        return matched, {"trials": dict(statuses), **({"judge_usage": usage} if usage is not None else {})}

    def _judged(self, rows: list[tuple[str, dict, Any, list[dict]]],
                params: dict[str, Any]) -> tuple[dict[str, Any], dict[str, int] | None]:
        """The [judge]'s NL_ASSERTION component of each trial whose reward it decides (every other component 1),
        asked of the judge B4 hands the kind (`ask_judge`, a MatchJudge: journaled, within [judge] max_calls /
        max_cost), with what asking took; else none."""
        judge = params.get("ask_judge")
        if judge is None:
            return {}, None
        waiting = {_trial_key(task_id, number): (trial["messages"], task["evaluation_criteria"]["nl_assertions"])
                   for task_id, task, data, trials in rows for number, trial in enumerate(trials)
                   if evaluate(task, data, trial["messages"], trial["termination_reason"]).status == NOT_JUDGED}
        if not waiting:
            return {}, None
        return judge_nl_assertions(waiting, judge)

    def score(self, matched: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        """B5: per task its pass^1 … pass^4 (C(successes, k) / C(trials, k), infrastructure errors left out; none
        when a trial is not decided or it has fewer than k trials), the items the nightly pairs nights on; the
        mean of pass^k over tasks is the model's pass^k when every task has k trials."""
        scored: Columns = {"id": matched["id"], **{metric: [] for metric in self.paired_metrics}}
        for text in matched["evaluations"]:
            rewards = [e["reward"] for e in json.loads(text) if e["termination_reason"] != INFRASTRUCTURE_ERROR]
            by_k = {} if None in rewards else task_pass_hat_ks(rewards, BOARD_TRIALS)
            for k in range(1, BOARD_TRIALS + 1):
                scored[f"pass_hat_{k}"].append(by_k.get(k))
        return scored, self.metrics_from_stats(self.score_stats(matched))

    def score_stats(self, matched: Columns) -> Stats:
        trials = []
        rows = len(matched["id"])
        groups = [f"{domain}/{split}" for domain, split in zip(matched.get("domain") or [""] * rows,
                                                               matched.get("split") or [ALL_TASKS] * rows)]
        for task_id, text, group in zip(matched["id"], matched["evaluations"], groups):
            trials.extend({"task": task_id, "group": group, "reward": e["reward"], "status": e["status"],
                           "termination_reason": e["termination_reason"],
                           "disagrees": e["file_reward"] is not None and e["reward"] is not None
                           and is_success(e["file_reward"]) != is_success(e["reward"]),
                           "trial": e["trial"]} for e in json.loads(text))
        boards = {(domain, board) for domain, board in zip(matched.get("domain") or [], matched.get("leaderboard") or [])
                  if board}
        return {"trials": trials, "tasks_without_trials": sum(text == "[]" for text in matched["evaluations"]),
                "boards": sorted(boards)}

    def metrics_from_stats(self, stats: Stats) -> dict[str, Any]:
        trials = stats["trials"]
        figures = trial_figures(trials)
        by_k = figures["pass_hat_k"]
        groups = sorted({t["group"] for t in trials if "group" in t})
        by_group = {group: trial_figures([t for t in trials if t.get("group") == group]) for group in groups}
        return {**figures, "rows": len({t["task"] for t in trials}) + stats["tasks_without_trials"],
                "by_domain_split": {group: {name: found[name] for name in ("pass_hat_k", "intervals", "avg_reward",
                                                                           "tasks", "trials")}
                                    for group, found in by_group.items()},
                "pass_hat_1": by_k.get("1"), "tasks_without_trials": stats["tasks_without_trials"],
                "terminations": dict(Counter(t["termination_reason"] for t in trials)),
                "disagreements_with_file": [f"task {t['task']} trial {t['trial']}" for t in trials if t["disagrees"]],
                "boards": [read_board(Path(board), domain) for domain, board in stats.get("boards") or []]}

    def item_view(self, matched: dict[str, Any]) -> tuple[str, str]:
        evaluations = json.loads(matched.get("evaluations") or "[]")
        return matched.get("status", "missing"), "; ".join(
            f"trial {e['trial']}: {e['status'] if e['reward'] is None else e['reward']}"
            + (f" ({e['note']})" if e["note"] else "") for e in evaluations)

    def compare(self, metrics_by_model: dict[str, dict[str, Any]], params: dict[str, Any]) -> dict[str, Any]:
        return rank_models(metrics_by_model, "pass_hat_1")

    def render(self, dataset: str, report: dict[str, Any]) -> str:
        models = report["models"]
        ks = sorted({int(k) for m in models.values() for k in m["pass_hat_k"]})
        rows = [[model, str(m["tasks"]), str(m["trials"]), *(percent(m["pass_hat_k"].get(str(k))) for k in ks),
                 percent(m["avg_reward"]), str(m["not_judged"]), str(m["infrastructure_errors"])]
                for model, m in models.items()]
        table = format_table(["model", "tasks", "trials", *(f"pass^{k}" for k in ks), "avg reward", "not judged",
                              "infra errors"], rows)
        left_out = [f"{model}: tasks left out of pass^k (a trial not judged): {', '.join(m['tasks_left_out'])}"
                    for model, m in models.items() if m["tasks_left_out"]]
        return "\n\n".join([table, _domain_split_table(models), *left_out,
                             *_board_tables(models, report.get("generation") or {})])


def _domain_split_table(models: dict[str, dict[str, Any]]) -> str:
    """pass^k per domain and split with its 95% interval over tasks."""
    ks = sorted({int(k) for m in models.values() for found in (m.get("by_domain_split") or {}).values()
                 for k in found["pass_hat_k"]})
    rows = [[model, group, str(found["tasks"]), *(_with_interval(found, k) for k in ks)]
            for model, m in models.items() for group, found in (m.get("by_domain_split") or {}).items()]
    return "per domain / split, 95% intervals over tasks:\n" + format_table(
        ["model", "domain/split", "tasks", *(f"pass^{k}" for k in ks)], rows)


def _with_interval(found: dict[str, Any], k: int) -> str:
    interval = found["intervals"].get(str(k))
    value = percent(found["pass_hat_k"].get(str(k)))
    return value if interval is None else f"{value} [{percent(interval['low'])}, {percent(interval['high'])}]"


def _board_tables(models: dict[str, dict[str, Any]], generation: dict[str, Any]) -> list[str]:
    """Each published board the run names, its submissions beside the run's own pass^k and user simulator (its
    `[user]` model), with the board's caveat and why the run's figures are not the board's kind."""
    boards = {(b["domain"], b["folder"]): b for m in models.values() for b in m.get("boards") or []}
    tables = []
    for (domain, folder), board in sorted(boards.items()):
        users = {model: run_user(generation.get(model)) for model in models}
        rows = [[f"{model} (this run)", "—", users[model] or "not recorded",
                 *(percent(m["pass_hat_k"].get(str(k))) for k in range(1, 5))] for model, m in models.items()]
        rows += [[entry["submission"], str(entry["tau2_version"] or "?"), str(entry["user_simulator"] or "?"),
                  *(percent(entry["pass_hat_k"].get(str(k))) for k in range(1, 5))] for entry in board["submissions"]]
        notes = [f"{model}: {note}" for model, m in models.items()
                 for note in (run_caveat(m), user_caveat(users[model])) if note]
        tables.append("\n".join([f"published τ²-bench board, {domain} ({len(board['submissions'])} submissions, "
                                  f"{folder}):", board["caveat"], *notes, *board["set_aside"],
                                  format_table(["submission", "tau2", "user simulator", *(f"pass^{k}" for k in
                                                                                        range(1, 5))], rows)]))
    return tables


def _split_scored(folder: Path, split: str) -> str:
    """The split B1 took the tasks of: `split`, or every task (ALL_TASKS) when it is "" or the folder has no
    split_tasks.json."""
    return split if split and (folder / "split_tasks.json").is_file() else ALL_TASKS


def _trial_key(task_id: str, number: int) -> str:
    return f"{task_id}#trial{number}"


def _status(evaluations: list[dict[str, Any]]) -> str:
    if not evaluations:
        return "missing"
    if any(e["status"] != "scored" for e in evaluations):
        return "scored"
    if all(is_success(e["reward"]) for e in evaluations):
        return "correct"
    return "wrong" if not any(is_success(e["reward"]) for e in evaluations) else "partial"
