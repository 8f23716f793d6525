"""IFEval kind: every instruction of a prompt checked on the response, strict and loose, as the official evaluator
checks them; prompt-level and instruction-level accuracy, per instruction and per group."""
from __future__ import annotations

import json
from collections import Counter
from typing import Any

from ...core.records import Columns
from ...core.stats import Stats, share
from ...core.text_table import format_table, percent
from ...io.fields import PROMPT_KEY, prompt_key
from ...text.reasoning import UNFINISHED
from ..base import Kind, Recognition, every_record_has, rank_models, register_kind
from .instructions import check_instruction, instruction_problem

HEADLINES = ("prompt_level_strict", "instruction_level_strict", "prompt_level_loose", "instruction_level_loose")


def _instructions(record: dict, question: str | None) -> dict[str, Any]:
    """The prompt's instruction ids and each one's kwargs (JSON text; unset kwargs, written as null, left out)."""
    ids, kwargs = record.get("instruction_id_list"), record.get("kwargs")
    if not isinstance(ids, list) or not all(isinstance(name, str) for name in ids):
        raise ValueError("instruction_id_list is not a list of instruction ids")
    if not isinstance(kwargs, list) or len(kwargs) != len(ids) or not all(isinstance(k, dict) for k in kwargs):
        raise ValueError("kwargs is not a list of one object per instruction")
    return {"instructions": ids, "kwargs": [json.dumps({k: v for k, v in found.items() if v is not None},
                                                       sort_keys=True) for found in kwargs],
            PROMPT_KEY: prompt_key(question) if question is not None else None}


@register_kind("ifeval")
class VerifiableInstructions(Kind):
    """Responses checked against their prompt's verifiable instructions (IFEval): followed strictly or loosely."""

    paired_metrics = {"prompt_level_strict": "binary", "instruction_level_strict": "mean", "prompt_level_loose": "binary",
                      "instruction_level_loose": "mean"}
    headline_metrics = HEADLINES
    pairs_by_prompt = True
    question_columns = ("instructions", "kwargs", PROMPT_KEY)
    prompt_templates = {"en": "{question}", "zh": "{question}"}  # the prompt is sent as it is

    def question_fields(self, record: dict, question: str | None) -> dict[str, Any]:
        return _instructions(record, question)

    def question_types(self) -> dict[str, Any]:
        import pyarrow as pa

        return {"instructions": pa.list_(pa.string()), "kwargs": pa.list_(pa.string()), PROMPT_KEY: pa.string()}

    def recognize(self, records: list[dict], dataset_name: str) -> Recognition:
        """IFEval's items: every record carries `instruction_id_list` and `kwargs`."""
        return Recognition.FIELDS if every_record_has(records, "instruction_id_list", "kwargs") else Recognition.NO

    def check_gold(self, golds: list[str], fields: dict[str, Any], params: dict[str, Any]) -> str | None:
        if not fields["instructions"]:
            return "no instructions to check"
        for name, kwargs in zip(fields["instructions"], fields["kwargs"]):
            problem = instruction_problem(name, json.loads(kwargs))
            if problem is not None:
                return problem
        return None

    def normalize(self, joined: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        """B3: the response after its reasoning; none when it is missing, not text or ends inside its reasoning."""
        states = joined.get("reasoning") or [None] * len(joined["id"])
        responses = [reply if isinstance(reply, str) and state != UNFINISHED else None
                     for reply, state in zip(joined["prediction"], states)]
        normalized = {"id": joined["id"], "response": responses, "instructions": joined["instructions"],
                      "kwargs": joined["kwargs"]}
        return normalized, {"without_response": sum(r is None for r in responses)}

    def match(self, normalized: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        """B4: each instruction's verdict, strict and loose, with the strict reason when not followed."""
        matched: Columns = {name: [] for name in ("id", "instructions", "kwargs", "strict", "loose", "reasons",
                                                  "prompt_strict", "prompt_loose", "status")}
        known: dict[tuple[str, str, str], tuple] = {}  # a reply repeated across samples is checked once
        for row_id, response, names, kwargs in zip(normalized["id"], normalized["response"],
                                                   normalized["instructions"], normalized["kwargs"]):
            strict, loose, reasons = [], [], []
            for name, arguments in zip(names, kwargs):
                if response is None:
                    verdicts = ((False, "no response"), (False, "no response"))
                else:
                    verdicts = known.get((name, arguments, response))
                    if verdicts is None:
                        verdicts = known[(name, arguments, response)] = check_instruction(
                            name, json.loads(arguments), response)
                strict.append(verdicts[0][0])
                loose.append(verdicts[1][0])
                reasons.append(verdicts[0][1])
            for name, value in (("id", row_id), ("instructions", names), ("kwargs", kwargs), ("strict", strict),
                                ("loose", loose), ("reasons", reasons), ("prompt_strict", all(strict)),
                                ("prompt_loose", all(loose))):
                matched[name].append(value)
            matched["status"].append("missing" if response is None else "correct" if all(strict) else "wrong")
        return matched, {"statuses": dict(Counter(matched["status"]))}

    def score(self, matched: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        """B5: per prompt 1 / 0 for each prompt-level figure, and for each instruction-level one its followed
        instructions × prompts / all instructions — so that every figure is the mean of its column and two runs
        compare prompt by prompt."""
        rows, total = len(matched["id"]), sum(len(v) for v in matched["strict"])
        weight = rows / total if total else 0.0
        scored = {"id": matched["id"],
                  "prompt_level_strict": [float(v) for v in matched["prompt_strict"]],
                  "instruction_level_strict": [sum(v) * weight for v in matched["strict"]],
                  "prompt_level_loose": [float(v) for v in matched["prompt_loose"]],
                  "instruction_level_loose": [sum(v) * weight for v in matched["loose"]]}
        return scored, self.metrics_from_stats(self.score_stats(matched))

    def score_stats(self, matched: Columns) -> Stats:
        by_instruction: dict[str, dict[str, int]] = {}
        for names, strict, loose in zip(matched["instructions"], matched["strict"], matched["loose"]):
            for name, s, lo in zip(names, strict, loose):
                tally = by_instruction.setdefault(name, {"count": 0, "strict": 0, "loose": 0})
                tally["count"] += 1
                tally["strict"] += s
                tally["loose"] += lo
        return {"rows": len(matched["id"]), "prompt_strict": sum(map(bool, matched["prompt_strict"])),
                "prompt_loose": sum(map(bool, matched["prompt_loose"])), "by_instruction": by_instruction,
                "answered": sum(status != "missing" for status in matched["status"])}

    def metrics_from_stats(self, stats: Stats) -> dict[str, Any]:
        by_instruction = stats["by_instruction"]
        count = sum(t["count"] for t in by_instruction.values())
        groups: dict[str, dict[str, int]] = {}
        for name, tally in by_instruction.items():
            group = groups.setdefault(name.split(":")[0], {"count": 0, "strict": 0, "loose": 0})
            for key in group:
                group[key] += tally[key]
        return {"rows": stats["rows"], "instructions": count,
                "prompt_level_strict": share(stats["prompt_strict"], stats["rows"]),
                "prompt_level_loose": share(stats["prompt_loose"], stats["rows"]),
                "instruction_level_strict": share(sum(t["strict"] for t in by_instruction.values()), count),
                "instruction_level_loose": share(sum(t["loose"] for t in by_instruction.values()), count),
                "answer_rate": share(stats["answered"], stats["rows"]),
                "by_instruction": {name: _figures(t) for name, t in sorted(by_instruction.items())},
                "by_group": {name: _figures(t) for name, t in sorted(groups.items())}}

    def parse_rate(self, metrics: dict[str, Any]) -> float | None:
        return metrics["answer_rate"]

    def item_view(self, matched: dict[str, Any]) -> tuple[str, str]:
        failed = [f"{name}: {reason}" for name, followed, reason in
                  zip(matched.get("instructions") or [], matched.get("strict") or [], matched.get("reasons") or [])
                  if not followed]
        return matched.get("status", "missing"), "; ".join(failed) or "every instruction followed"

    def compare(self, metrics_by_model: dict[str, dict[str, Any]], params: dict[str, Any]) -> dict[str, Any]:
        return rank_models(metrics_by_model, "prompt_level_strict")

    def render(self, dataset: str, report: dict[str, Any]) -> str:
        models = report["models"]
        rows = [[model, str(m["rows"]), str(m["instructions"]), *(percent(m[name]) for name in HEADLINES)]
                for model, m in models.items()]
        text = format_table(["model", "prompts", "instructions", "Prompt strict", "Instr. strict", "Prompt loose",
                             "Instr. loose"], rows)
        groups = sorted({group for m in models.values() for group in m["by_group"]})
        table = [[group, *(_cell(m["by_group"].get(group)) for m in models.values())] for group in groups]
        return text + "\n\n" + format_table(["instruction group (strict, loose, count)", *models], table)


def _figures(tally: dict[str, int]) -> dict[str, Any]:
    return {"count": tally["count"], "strict": share(tally["strict"], tally["count"]),
            "loose": share(tally["loose"], tally["count"])}


def _cell(figures: dict[str, Any] | None) -> str:
    return "-" if figures is None else f"{percent(figures['strict'])} {percent(figures['loose'])} ({figures['count']})"
