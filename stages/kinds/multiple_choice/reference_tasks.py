"""Multiple-choice tasks scored by their own reference script (`task = "..."` beside `kind`): the reply read by the
script's rule, unread items guessed where the script guesses, figures per category beside the overall ones."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...core.distinct import per_distinct_value, value_counts
from ...core.registry import Registry
from ...core.stats import Stats, share
from .gpqa import gpqa_letter, permutations, shuffled_choices
from .mmlu_pro import mmlu_pro_rule, script_guesses
from .options import LETTERS

if TYPE_CHECKING:
    import pyarrow as pa

TaskMatch = Callable[["pa.Table"], dict[str, "pa.Array"]]
TASKS: Registry[TaskMatch] = Registry("multiple-choice task", "stages.kinds.multiple_choice")
OPTION_COUNTS = {"gpqa": 4}  # a task whose script takes items of exactly this many options (B1 sets others aside)


def register_task(name: str) -> Callable[[TaskMatch], TaskMatch]:
    """Register a B4 reading for `task = name`: from B3's table (id, options, category, gold_letter, reply, and
    sample when items have several replies) the columns letter (an option of the file's order), rule and correct,
    and the task's own (guess: the letter guessed for an unread item)."""
    return TASKS.register(name)


@register_task("mmlu_pro")
def mmlu_pro_match(table: pa.Table) -> dict[str, pa.Array]:
    """MMLU-Pro's extract_answer cascade on each reply (after </think>); an unread item takes save_res's seeded
    option index, drawn over the B4 rows in their order, and is right when it is the gold's."""
    import pyarrow as pa
    import pyarrow.compute as pc

    readings, codes = per_distinct_value(lambda reply: mmlu_pro_rule(reply) if reply else (None, None),
                                         table.column("reply"))
    letters, rules = ([readings[code][part] for code in codes.tolist()] for part in (0, 1))
    option_counts = pc.list_value_length(table.column("options")).to_pylist()
    guesses = script_guesses(table.column("category").to_pylist(), option_counts,
                             [letter is None for letter in letters])
    guess = [LETTERS[guesses[row]] if row in guesses else None for row in range(table.num_rows)]
    gold = table.column("gold_letter").to_pylist()
    correct = [(letter or chosen) == right for letter, chosen, right in zip(letters, guess, gold)]
    return {"letter": pa.array(letters, pa.string()), "rule": pa.array(rules, pa.string()),
            "guess": pa.array(guess, pa.string()), "correct": pa.array(correct, pa.bool_())}


@register_task("gpqa")
def gpqa_match(table: pa.Table) -> dict[str, pa.Array]:
    """gpqa_eval's fn on each reply: the options (the correct one first) in the order the permutation of the item's
    position and the reply's repeat (its sample number) gave them, the letter ANSWER_PATTERN_MULTICHOICE reads
    (`read`), right when it is the correct answer's letter in that order (`shown_gold`); `letter` is the option read,
    in the file's order, so an item's repeats vote on one answer whatever order each was shown in. Positions count
    the items of the B3 rows, in their order."""
    import pyarrow as pa

    ids = table.column("id").to_pylist()
    position = {item: index for index, item in enumerate(dict.fromkeys(ids))}
    repeats = [repeat or 0 for repeat in (table.column("sample").to_pylist() if "sample" in table.column_names
                                          else [0] * len(ids))]
    drawn = permutations(len(position), max(repeats, default=0) + 1)
    readings, codes = per_distinct_value(lambda reply: gpqa_letter(reply) if reply else None, table.column("reply"))
    read = [readings[code] for code in codes.tolist()]
    shown, letters = [], []
    for item, repeat, options, gold, letter in zip(ids, repeats, table.column("options").to_pylist(),
                                                   table.column("gold_letter").to_pylist(), read):
        permutation = drawn[repeat * len(position) + position[item]]
        shown.append(shuffled_choices(options, options[LETTERS.index(gold)], permutation)[1])
        letters.append(LETTERS[permutation["ABCD".index(letter)]] if letter and letter in "ABCD" else None)
    return {"letter": pa.array(letters, pa.string()),
            "rule": pa.array(["answer pattern" if letter else None for letter in read], pa.string()),
            "read": pa.array(read, pa.string()), "shown_gold": pa.array(shown, pa.string()),
            "correct": pa.array([letter == gold for letter, gold in zip(read, shown)], pa.bool_())}


def guess_stats(table: pa.Table) -> Stats:
    """The counts a reference task's metrics need from B4 rows that hold guesses: guessed rows, guessed right, and
    per category its rows, right ones (guesses counted) and right guesses."""
    import pyarrow.compute as pc

    guessed = pc.is_valid(table.column("guess"))
    correct = pc.fill_null(table.column("correct"), False)
    lucky = pc.and_(guessed, correct)
    categories = pc.fill_null(table.column("category"), "")
    per_category = {}
    for category in value_counts(categories):
        rows = pc.equal(categories, category)
        per_category[category] = {"rows": pc.sum(rows.cast("int64")).as_py(),
                                  "correct": pc.sum(pc.and_(rows, correct).cast("int64")).as_py(),
                                  "guessed_correct": pc.sum(pc.and_(rows, lucky).cast("int64")).as_py()}
    return {"guessed": pc.sum(guessed.cast("int64")).as_py() or 0,
            "guessed_correct": pc.sum(lucky.cast("int64")).as_py() or 0, "per_category": per_category}


def guess_metrics(stats: Stats) -> dict[str, Any]:
    """Accuracy without the guesses beside the reference's (with them), overall and per category."""
    rows, correct, lucky = stats["rows"], stats["correct"], stats.get("guessed_correct", 0)
    return {"accuracy_without_guesses": share(correct - lucky, rows), "guessed": stats.get("guessed", 0),
            "guessed_correct": lucky,
            "per_category": {name: {"rows": counts["rows"], "accuracy": share(counts["correct"], counts["rows"]),
                                    "accuracy_without_guesses": share(counts["correct"] - counts["guessed_correct"],
                                                                      counts["rows"])}
                             for name, counts in sorted(stats.get("per_category", {}).items())}}


def category_tables(models: dict[str, dict[str, Any]]) -> list[str]:
    """Per model with a reference task's figures: accuracy with and without the guesses, overall and per category."""
    from ...core.text_table import format_table, percent

    tables = []
    for model, metrics in models.items():
        if "per_category" not in metrics:
            continue
        rows = [[name, str(figures["rows"]), percent(figures["accuracy"]), percent(figures["accuracy_without_guesses"])]
                for name, figures in metrics["per_category"].items()]
        rows.append(["overall", str(metrics["rows"]), percent(metrics["accuracy"]),
                     percent(metrics["accuracy_without_guesses"])])
        tables.append(f"{model}: {metrics['guessed']} unread replies guessed as the reference guesses, "
                      f"{metrics['guessed_correct']} of them right\n"
                      + format_table(["category", "items", "accuracy", "without guesses"], rows))
    return tables
