"""Math answers kind: the reply's final answer (boxed, after an answer cue, or its last expression) against the gold by
symbolic equivalence (math-verify), each comparison under a time limit; accuracy, per subject and per level."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ...core.arrow_strings import first_items
from ...core.distinct import value_counts
from ...core.param_rules import at_least
from ...core.records import Rows, as_table, column_length, column_names
from ...core.stats import Stats, share
from ...core.text_table import format_table, percent
from ...text.reasoning import UNFINISHED
from ..base import SHARD_ROWS, Kind, rank_models, register_kind
from ..sampling import answer_groups, grouping_decides
from .checker_parent import start_checker_parent
from .equivalence import PAIRS_PER_CHECKER, CheckerPool, Comparison
from .final_answer import FinalAnswer, extract_final_answer, gold_answer, gold_problem

if TYPE_CHECKING:
    import pyarrow as pa

UNFINISHED_REASONING, NO_REPLY, NOT_COMPARED = "unfinished reasoning", "no reply", "not compared"
GROUPS = ("subject", "level")  # question fields the figures are broken down by, when the rows carry them
WARM_TEXTS = 2000  # distinct texts of a stage the checkers' warm parent parses ahead (about 5 ms each)


def _label(value: Any) -> str | None:
    """A subject or level as text (MATH-500's level is a number, MATH's 'Level 3'); None when absent."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip() or None


@register_kind("math")
class MathAnswers(Kind):
    """Final answers equal to the gold by math-verify; replies without one, or that end inside their reasoning, are
    wrong and counted; comparisons past the time limit are left out and named."""
    paired_metrics = {"accuracy": "binary"}
    vote_column = ("B4", "vote")

    defaults = {"compare_seconds": 5.0, "shard_rows": SHARD_ROWS}
    stage_params = {"B4": ("compare_seconds",)}
    param_rules = {"compare_seconds": at_least(0.1), "shard_rows": at_least(1, integer=True)}
    prompt_templates = {
        "en": "Solve the problem. Put your final answer within \\boxed{{}}.\n\n{question}",
        "zh": "请解答下面的数学题，并把最终答案写在 \\boxed{{}} 中。\n\n{question}",
    }
    question_columns = GROUPS
    question_readers = {name: _label for name in GROUPS}
    shardable = True
    columnar_stages = True
    joined_question_columns = ("id", "golds", *GROUPS)
    status_column = "status"

    def question_types(self) -> dict[str, pa.DataType]:
        import pyarrow as pa

        return {name: pa.string() for name in GROUPS}

    def check_gold(self, golds: list[str], fields: dict[str, Any], params: dict[str, Any]) -> str | None:
        """A gold without an answer (`five`, a sentence) is set aside, not read as a product of letters."""
        if not golds:
            return "no gold answer"
        return gold_problem(golds[0])

    def columnar_question_fields(self, table: pa.Table, question: pa.Array, golds: pa.Array,
                                 params: dict[str, Any]) -> dict[str, pa.Array] | None:
        """The fast path takes rows whose first golds all have an answer (each distinct one read once); otherwise
        the rows go row by row, to be set aside."""
        firsts = first_items(golds)
        if firsts.null_count:
            return None
        return {} if all(gold_answer(gold) is not None for gold in firsts.unique().to_pylist()) else None

    def warm_up_run(self, matching_here: Callable[[], bool]) -> None:
        """math-verify's warm parent starts as the run begins when the run computes a math B4 in this process: it
        imports math-verify while the run starts up and B1 loads."""
        if matching_here():
            start_checker_parent([])

    def warm_up(self, rows: Rows) -> None:
        """With rows enough for more than one checker, math-verify's warm parent starts while B1–B3 run (unless the
        run has started it) and parses ahead B1's gold answers, then B3's golds and final answers (up to WARM_TEXTS
        distinct ones a stage): its checkers, forked from it, hold them parsed."""
        if column_length(rows) >= PAIRS_PER_CHECKER:
            start_checker_parent(_texts_to_warm(rows))

    def normalize(self, joined: Rows, params: dict[str, Any]) -> tuple[pa.Table, dict[str, Any]]:
        """B3: the gold's answer as LaTeX math-verify reads, and the final answer taken from each reply with how it
        was taken."""
        import pyarrow as pa

        table = as_table(joined, _column_types())
        firsts = [golds[0] for golds in table.column("golds").to_pylist()]
        gold_texts = {first: gold_answer(first) for first in dict.fromkeys(firsts)}
        golds = [gold_texts[first] for first in firsts]
        states = (table.column("reasoning").to_pylist() if "reasoning" in table.column_names
                  else [None] * table.num_rows)
        finals: dict[str, FinalAnswer] = {}  # a model's samples repeat their replies: each read once
        extracted, how = [], []
        for reply, state in zip(table.column("prediction").to_pylist(), states):
            if reply is None or state == UNFINISHED:
                extracted.append(None)
                how.append(NO_REPLY if reply is None else UNFINISHED_REASONING)
                continue
            final = finals.get(reply)
            if final is None:
                final = finals[reply] = extract_final_answer(reply)
            extracted.append(final.text)
            how.append(final.how)
        columns = {"id": table.column("id"), "gold": pa.array(golds, pa.string()),
                   "extracted": pa.array(extracted, pa.string()), "how": pa.array(how, pa.string())}
        columns.update({name: _group_column(table, name) for name in GROUPS})
        normalized = pa.table(columns)
        return normalized, {"taken": value_counts(normalized.column("how"))}

    def match(self, normalized: Rows, params: dict[str, Any]) -> tuple[pa.Table, dict[str, Any]]:
        """B4: each distinct (gold, final answer) compared once; rows without an answer are wrong, with why."""
        import pyarrow as pa

        table = as_table(normalized, _column_types())
        golds, answers = table.column("gold").to_pylist(), table.column("extracted").to_pylist()
        pairs = list(dict.fromkeys((g, a) for g, a in zip(golds, answers) if a is not None and g is not None))
        with CheckerPool(params["compare_seconds"]) as checkers:
            found = dict(zip(pairs, checkers.compare(pairs)))
            correct, status, reason = _verdicts(golds, answers, table.column("how").to_pylist(), found)
            votes = (_votes(table.column("id").to_pylist(), answers, correct, checkers)
                     if "sample" in table.column_names else answers)
        matched = table.select(["id", "gold", "extracted", "how"]).append_column(
            "correct", pa.array(correct, pa.bool_())).append_column(
            "status", pa.array(status, pa.string())).append_column("reason", pa.array(reason, pa.string()))
        for name in GROUPS:
            matched = matched.append_column(name, table.column(name))
        matched = matched.append_column("vote", pa.array(votes, pa.string()))
        not_compared = [row for row, s in zip(table.column("id").to_pylist(), status) if s == NOT_COMPARED]
        return matched, {"statuses": value_counts(matched.column("status")), "not_compared": not_compared}

    def score(self, matched: Rows, params: dict[str, Any]) -> tuple[pa.Table, dict[str, Any]]:
        import pyarrow as pa

        table = as_table(matched, _column_types())
        accuracy = table.column("correct").cast(pa.float64())
        return (pa.table({"id": table.column("id"), "accuracy": accuracy, "status": table.column("status")}),
                self.metrics_from_stats(self.score_stats(table)))

    def score_stats(self, matched: Rows) -> Stats:
        table = as_table(matched, _column_types())
        correct = table.column("correct").to_pylist()
        stats: Stats = {"rows": table.num_rows, "compared": sum(c is not None for c in correct),
                        "correct": sum(c is True for c in correct),
                        "answered": table.num_rows - table.column("extracted").null_count,
                        "taken": value_counts(table.column("how")), "statuses": value_counts(table.column("status"))}
        for name in GROUPS:
            groups: dict[str, dict[str, int]] = {}
            for label, right in zip(table.column(name).to_pylist(), correct):
                if label is not None and right is not None:
                    tally = groups.setdefault(label, {"rows": 0, "correct": 0})
                    tally["rows"] += 1
                    tally["correct"] += right
            stats[f"by_{name}"] = groups
        return stats

    def metrics_from_stats(self, stats: Stats) -> dict[str, Any]:
        rows, compared = stats["rows"], stats["compared"]
        metrics = {"rows": rows, "accuracy": share(stats["correct"], compared),
                   "answer_rate": share(stats["answered"], rows), "not_compared": rows - compared,
                   "taken": dict(stats["taken"]), "statuses": dict(stats["statuses"])}
        for name in GROUPS:
            groups = stats.get(f"by_{name}") or {}
            if groups:
                metrics[f"by_{name}"] = {label: {"rows": g["rows"], "accuracy": share(g["correct"], g["rows"])}
                                         for label, g in sorted(groups.items())}
        return metrics

    def parse_rate(self, metrics: dict[str, Any]) -> float | None:
        return metrics["answer_rate"]

    def item_view(self, matched: dict[str, Any]) -> tuple[str, str]:
        return matched.get("status", "missing"), matched.get("reason") or ""

    def compare(self, metrics_by_model: dict[str, dict[str, Any]], params: dict[str, Any]) -> dict[str, Any]:
        return rank_models(metrics_by_model, "accuracy")

    def render(self, dataset: str, report: dict[str, Any]) -> str:
        models = report["models"]
        rows = [[model, str(m["rows"]), percent(m["accuracy"]), percent(m["answer_rate"]), str(m["not_compared"]),
                 ", ".join(f"{how} {n}" for how, n in sorted(m["taken"].items(), key=lambda kv: -kv[1]))]
                for model, m in models.items()]
        text = format_table(["model", "rows", "Accuracy", "Answer rate", "not compared", "answers taken"], rows)
        for name in GROUPS:
            labels = sorted({label for m in models.values() for label in m.get(f"by_{name}", {})})
            if labels:
                table = [[label, *(_group_cell(m.get(f"by_{name}", {}).get(label)) for m in models.values())]
                         for label in labels]
                text += "\n\n" + format_table([name, *models], table)
        return text


def _verdicts(golds: list[str], answers: list[str | None], hows: list[str],
              found: dict[tuple[str, str], Comparison]) -> tuple[list[bool | None], list[str], list[str]]:
    """Each row's (correct, status, reason) from its comparison; a row without an answer is wrong, with why."""
    correct, status, reason = [], [], []
    for gold, answer, how in zip(golds, answers, hows):
        if answer is None:
            correct.append(False)
            status.append("missing" if how == NO_REPLY else "unparsed")
            reason.append(how)
            continue
        if gold is None:  # B1 sets such golds aside: only rows handed to B3 directly get here
            correct.append(None)
            status.append(NOT_COMPARED)
            reason.append(f"{how}; {NOT_COMPARED}: the gold has no final answer")
            continue
        comparison = found[(gold, answer)]
        correct.append(comparison.equal)
        if comparison.equal is None:
            status.append(NOT_COMPARED)
            reason.append(f"{how}; {NOT_COMPARED}: {comparison.problem}")
        else:
            status.append("correct" if comparison.equal else "wrong")
            relation = "equal to" if comparison.equal else "not equal to"
            reason.append(f"{how}; {comparison.answer_read or answer} {relation} the gold {comparison.gold_read or gold}")
    return correct, status, reason


def _votes(ids: list[str], answers: list[str | None], correct: list[bool | None],
           checkers: CheckerPool) -> list[str | None]:
    """The answers maj@k counts: right ones as they are (they all vote as one); a wrong one as the first of its item's
    wrong answers equal to it by math-verify where that grouping can change the item's maj@k, else as it is."""
    grouped_items = grouping_decides(ids, correct, answers)
    wrong = [answer if right is False and str(item) in grouped_items else None
             for item, answer, right in zip(ids, answers, correct)]
    grouped = answer_groups(ids, wrong, lambda pairs: [c.equal for c in checkers.compare(pairs)])
    return [answer if right or (right is False and str(item) not in grouped_items) else vote
            for item, answer, right, vote in zip(ids, answers, correct, grouped)]


def _group_cell(group: dict[str, Any] | None) -> str:
    return "-" if group is None else f"{percent(group['accuracy'])} ({group['rows']})"


def _group_column(table: pa.Table, name: str) -> pa.ChunkedArray | pa.Array:
    import pyarrow as pa

    return table.column(name) if name in table.column_names else pa.nulls(table.num_rows, pa.string())


def _column_types() -> dict[str, pa.DataType]:
    """The Arrow type of every column the stages read."""
    import pyarrow as pa

    return {"golds": pa.list_(pa.string()), "prediction": pa.string(), "reasoning": pa.string(),
            "gold": pa.string(), "extracted": pa.string(), "how": pa.string(), "correct": pa.bool_(),
            "status": pa.string(), "reason": pa.string(), "subject": pa.string(), "level": pa.string(),
            "vote": pa.string()}


def _texts_to_warm(rows: Rows) -> list[str]:
    """The texts B4 will compare that a stage's rows already show, the first WARM_TEXTS distinct ones: the answers of
    B1's first golds; B3's golds, then its final answers; none for B2's."""
    names = column_names(rows)
    if "golds" in names:
        texts = (text for text in map(gold_answer, _distinct_firsts(rows)) if text is not None)
    else:
        texts = (text for name in ("gold", "extracted") if name in names for text in _distinct(rows, name))
    return list(dict.fromkeys(texts))[:WARM_TEXTS]


def _distinct_firsts(rows: Rows) -> list[str]:
    """The distinct first golds of B1's rows."""
    if isinstance(rows, dict):
        return list(dict.fromkeys(golds[0] for golds in rows["golds"] if golds))
    return first_items(rows.column("golds").combine_chunks()).unique().drop_null().to_pylist()


def _distinct(rows: Rows, name: str) -> list[str]:
    """A text column's distinct values, nulls left out."""
    if isinstance(rows, dict):
        return [value for value in dict.fromkeys(rows[name]) if value is not None]
    return rows.column(name).unique().drop_null().to_pylist()
