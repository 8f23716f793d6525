"""B4 of a kind that asks the [judge] as it matches (tau2's NL assertions): the judge's settings, its journal beside
B4's artifact, the verdict store and the run's budget ledger; a journal holding failed calls makes the next run ask
them again (as B5J's does)."""
from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from stages import AnswerStore, get_kind
from stages.core.printable import printable
from stages.io.storage import location
from stages.judge.config import NOT_VERDICTS
from stages.judge.match_asker import judge_asker

if TYPE_CHECKING:
    from upath import UPath

    from .task_base import StageTask

MATCH_JOURNAL = "B4_judge_calls.jsonl"
_SAID: set[str] = set()  # lines this process has printed (each judge stage of a run meets the same change)


def say_once(line: str) -> None:
    if line not in _SAID:
        _SAID.add(line)
        print(printable(line), file=sys.stderr, flush=True)


def distrusted_line(judge: str, why: str) -> str:
    """What the console says of a judge whose stored verdicts are not used this run (B5J's and B4's alike)."""
    return f"evalpipe: judge {judge}: {why}; none of its stored verdicts are used this run (asked again)"


def asks_judge(task: StageTask) -> bool:
    """This B4's kind asks the judge as it matches, and the dataset has a [judge]."""
    return get_kind(task.spec["kind"]).match_asks_judge and bool(task.spec.get("judge"))


def match_journal(task: StageTask) -> UPath:
    """Every judge call B4 made, as answered (kept by --force; delete it to ask everything again)."""
    return task.artifact_path().with_name(MATCH_JOURNAL)


def budget_ledger(task: StageTask) -> UPath:
    """The ledger every judge stage of this run of the dataset reserves its calls from ([judge] max_calls / max_cost)."""
    return location(task.outputs_dir) / task.dataset / f".judge_budget.{task.spec.get('run_token')}.json"


def match_judge_params(task: StageTask) -> dict[str, Any]:
    """The [judge] settings that decide B4's verdicts (part of its fingerprint); none when it asks no judge."""
    if not asks_judge(task):
        return {}
    return {"judge": {k: v for k, v in task.plain_spec["judge"].items() if k not in NOT_VERDICTS}}


def match_judge_settings(task: StageTask) -> dict[str, Any]:
    """What the kind's match needs to ask the judge (`ask_judge`): every [judge] setting, its concurrency, the
    journal, the verdict store, with max_calls / max_cost the budget ledger, and the recheck's seed (the outputs, as
    B5J's) with the line said of a judge the recheck distrusts."""
    if not asks_judge(task):
        return {}
    judge = task.plain_spec["judge"]
    limited = judge.get("max_calls") is not None or judge.get("max_cost") is not None
    return {"ask_judge": judge_asker(judge, task.spec["judge_concurrency"], str(match_journal(task)),
                                     task.spec.get("judge_store"), str(budget_ledger(task)) if limited else None,
                                     recheck_seed=str(task.outputs_dir),
                                     tell=lambda name, why: say_once(distrusted_line(name, why)))}


def match_retry(task: StageTask) -> dict[str, Any]:
    """Failed judge calls in B4's journal make every new run stale (so it asks them again), stable within the run."""
    if asks_judge(task) and AnswerStore(match_journal(task)).has_failures():
        return {"retry_run": task.spec.get("run_token")}
    return {}


def match_resources(task: StageTask) -> dict[str, int]:
    """The judge's calls hold `concurrency` units of endpoint.<protocol>, as B5J's do."""
    if not asks_judge(task):
        return {}
    return {f"endpoint.{task.spec['judge']['protocol']}": task.spec["judge_concurrency"]}
