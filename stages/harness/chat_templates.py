"""Chat templates around prompts: what each model's prompts add around the text that models of one run share."""
from __future__ import annotations

import os

NO_TEMPLATE = ("", "")


def _common_prefix(texts: list[str]) -> str:
    return os.path.commonprefix(texts)


def _common_suffix(texts: list[str]) -> str:
    return os.path.commonprefix([text[::-1] for text in texts])[::-1]


def without_template(prompt: str, template: tuple[str, str]) -> str:
    """The prompt with a model's template (text before, text after) taken off."""
    before, after = template
    if prompt.startswith(before) and prompt.endswith(after) and len(before) + len(after) <= len(prompt):
        return prompt[len(before):len(prompt) - len(after)]
    return prompt


def chat_templates(prompts_by_model: list[dict[str, str]]) -> list[tuple[str, str]]:
    """Per model (its prompts by row id), the chat template its prompts wear: what every one of its prompts starts
    and ends with, less what the other models' prompts start and end with too (the dataset's own instruction and
    the options' last characters stay). Found only when the models asked the same rows, two or more each, and their
    prompts are then equal row by row; else no model has one."""
    ids = set(prompts_by_model[0]) if prompts_by_model else set()
    if len(prompts_by_model) < 2 or len(ids) < 2 or any(set(prompts) != ids for prompts in prompts_by_model):
        return [NO_TEMPLATE] * len(prompts_by_model)
    order = sorted(ids)
    texts = [[prompts[row] for row in order] for prompts in prompts_by_model]
    befores = [_common_prefix(rows) for rows in texts]
    afters = [_common_suffix([row[len(before):] for row in rows]) for rows, before in zip(texts, befores)]
    shared_before, shared_after = _common_suffix(befores), _common_prefix(afters)
    templates = [(before[:len(before) - len(shared_before)], after[len(shared_after):])
                 for before, after in zip(befores, afters)]
    stripped = [[without_template(row, template) for row in rows] for rows, template in zip(texts, templates)]
    if all(rows == stripped[0] for rows in stripped[1:]):
        return templates
    return [NO_TEMPLATE] * len(prompts_by_model)
