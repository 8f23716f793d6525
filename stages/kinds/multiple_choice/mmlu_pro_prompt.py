"""MMLU-Pro's 5-shot chain-of-thought prompt as evaluate_from_local.py builds it (generate_cot_prompt,
format_cot_example): the category's instruction, the first five validation questions of that category with their
chain of thought, then the question, ending 'Answer: Let's think step by step.'."""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from ...core.records import Reject, Rows, as_columns
from ...io.readers import iter_records
from .options import LETTERS

INITIAL_PROMPT = ('The following are multiple choice questions (with answers) about {$}. Think step by step and then '
                  'finish your answer with "the answer is (X)" where X is the correct letter choice.\n\n\n')
SHOTS = 5  # --ntrain's default
SKIPPED_OPTION = "N/A"  # preprocess drops these options


def cot_example(question: str, options: list[str], cot_content: str | None = None) -> str:
    """format_cot_example: with `cot_content` an example and its worked answer, without it the question asked."""
    prompt = f"Question:\n{question}\nOptions:\n" + "".join(f"{LETTERS[i]}. {option}\n"
                                                             for i, option in enumerate(options))
    if cot_content is None:
        return prompt + "Answer: Let's think step by step."
    return prompt + cot_content.replace("A: Let's think step by step.", "Answer: Let's think step by step.") + "\n\n"


def cot_prompt(category: str, question: str, options: list[str], examples: list[dict[str, Any]]) -> str:
    """generate_cot_prompt: the instruction naming the category, its examples, the question."""
    prompt = INITIAL_PROMPT.replace("{$}", category) + "\n"
    for example in examples:
        prompt += cot_example(example["question"], example["options"], example["cot_content"])
    return prompt + cot_example(question, options)


def fewshot_examples(path: Path, shots: int = SHOTS) -> dict[str, list[dict[str, Any]]]:
    """The first `shots` rows of each category of a validation-split file (question, options, cot_content,
    category), their "N/A" options dropped as preprocess drops them; a row that is not such an object is a
    ValueError naming its line."""
    examples: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for found in iter_records(path):
        record = None if isinstance(found, Reject) else found[1]
        if not isinstance(record, dict) or not all(isinstance(record.get(name), str)
                                                   for name in ("question", "cot_content", "category")) \
                or not isinstance(record.get("options"), list):
            where = found.line if isinstance(found, Reject) else found[0]
            raise ValueError(f"{path}: line {where} is not a validation row (question, options, cot_content, "
                             "category)")
        if len(examples[record["category"]]) < shots:
            examples[record["category"]].append(
                {**record, "options": [option for option in record["options"] if option != SKIPPED_OPTION]})
    return dict(examples)


def with_prompts(rows: Rows, examples: dict[str, list[dict[str, Any]]]) -> Rows:
    """B1's rows with a `prompt` column: each item's cot_prompt from its category's examples (a category the file
    has no examples of is a ValueError naming it)."""
    columns = as_columns(rows)
    missing = sorted({category for category in columns["category"] if category not in examples}, key=str)
    if missing:
        raise ValueError(f"the few-shot file has no example of categor{'y' if len(missing) == 1 else 'ies'} "
                         + ", ".join(map(repr, missing)))
    prompts = [cot_prompt(category, question or "", options, examples[category])
               for category, question, options in zip(columns["category"], columns["question"], columns["options"])]
    if isinstance(rows, dict):
        return {**rows, "prompt": prompts}
    import pyarrow as pa

    return rows.append_column("prompt", pa.array(prompts, pa.string()))
