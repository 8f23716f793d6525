"""The items of a loglikelihood task: each a context, its choices (continuations) and the gold index, built as lm-eval
0.4.13 builds its requests — the built-in HellaSwag, ARC, MMLU and Winogrande prompts, or a generic template for any
other task. A several-context task (Winogrande) puts each choice in its own context, all sharing one continuation."""
from __future__ import annotations

import re
import string
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .mmlu_subjects import CATEGORIES

LETTERS = ("A", "B", "C", "D")
MMLU_DESCRIPTION = "The following are multiple choice questions (with answers) about {}.\n\n"


@dataclass(frozen=True)
class Item:
    """One scored question: the context, each choice's text (lengths for acc_norm) and continuation (what is asked:
    the target delimiter then the choice), the gold index, the subject for per-subject figures; for a several-context
    task each choice's own context (`contexts`; `context` is then their shared start)."""

    context: str
    choices: list[str]
    continuations: list[str]
    gold: int
    subject: str | None = None
    contexts: list[str] | None = None


@dataclass(frozen=True)
class TaskForm:
    """How a task turns a record into a context, choices and gold (a ValueError says why a record cannot)."""

    text: Callable[[dict], str]
    choices: Callable[[dict], list[str]]
    gold: Callable[[dict], int]
    target_delimiter: str = " "
    fewshot_delimiter: str = "\n\n"
    description: Callable[[dict], str] = lambda record: ""
    subject: Callable[[dict], str | None] = lambda record: None
    target: Callable[[dict], str] | None = None  # several contexts: the continuation every choice's context shares


def hellaswag_preprocess(text: str) -> str:
    """lm-eval's HellaSwag clean-up: stripped, " [title]" made a sentence end, other [bracketed] marks dropped,
    double spaces made single (once, as lm-eval does)."""
    text = text.strip().replace(" [title]", ". ")
    text = re.sub("\\[.*?\\]", "", text)
    return text.replace("  ", " ")


def _text(record: dict, name: str) -> str:
    value = record.get(name)
    if not isinstance(value, str):
        raise ValueError(f"{name} is not text")
    return value


def _texts(value: Any, name: str) -> list[str]:
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{name} is not a non-empty list of texts")
    return value


def _index(value: Any, count: int, name: str) -> int:
    """A gold index from an int or a digit string, within the choices."""
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < count:
        raise ValueError(f"{name} {value!r} is not a choice's index (0–{count - 1})")
    return value


def _hellaswag_context(record: dict) -> str:
    return hellaswag_preprocess(_text(record, "activity_label") + ": " + _text(record, "ctx_a") + " "
                                + _text(record, "ctx_b").capitalize())


def _hellaswag_choices(record: dict) -> list[str]:
    return [hellaswag_preprocess(ending) for ending in _texts(record.get("endings"), "endings")]


def _arc_choices(record: dict) -> list[str]:
    choices = record.get("choices")
    return _texts(choices.get("text") if isinstance(choices, dict) else None, "choices.text")


def _arc_gold(record: dict) -> int:
    choices = record.get("choices")
    labels = _texts(choices.get("label") if isinstance(choices, dict) else None, "choices.label")
    if record.get("answerKey") not in labels:
        raise ValueError(f"answerKey {record.get('answerKey')!r} is none of the labels {labels}")
    return labels.index(record["answerKey"])


def _mmlu_text(record: dict) -> str:
    options = _mmlu_options(record)
    return (_text(record, "question").strip() + "".join(f"\n{letter}. {option}" for letter, option
                                                        in zip(LETTERS, options)) + "\nAnswer:")


def _mmlu_options(record: dict) -> list[str]:
    options = _texts(record.get("choices"), "choices")
    if len(options) != len(LETTERS):
        raise ValueError(f"choices has {len(options)} options, MMLU has four")
    return options


def _mmlu_choices(record: dict) -> list[str]:
    """MMLU's choices are the letters (its options are in the context)."""
    _mmlu_options(record)
    return list(LETTERS)


def _mmlu_subject(record: dict) -> str:
    subject = _text(record, "subject")
    if subject not in CATEGORIES:
        raise ValueError(f"subject {subject!r} is none of MMLU's 57")
    return subject


def _blank(record: dict) -> int:
    """Where Winogrande's sentence has its blank (the first `_`)."""
    index = _text(record, "sentence").find("_")
    if index < 0:
        raise ValueError("sentence has no blank (_)")
    return index


def _winogrande_answer(record: dict) -> int:
    """Winogrande's answer "1" / "2" as the option's index."""
    value = record.get("answer")
    if str(value) not in ("1", "2") or isinstance(value, bool):
        raise ValueError(f"answer {value!r} is neither \"1\" nor \"2\"")
    return int(value) - 1


HELLASWAG = TaskForm(_hellaswag_context, _hellaswag_choices, lambda r: _index(r.get("label"), 4, "label"))
ARC = TaskForm(lambda r: f"Question: {_text(r, 'question')}\nAnswer:", _arc_choices, _arc_gold)
MMLU = TaskForm(_mmlu_text, _mmlu_choices,
                lambda r: _index(r.get("answer"), 4, "answer"),
                description=lambda r: MMLU_DESCRIPTION.format(_mmlu_subject(r).replace("_", " ")),
                subject=_mmlu_subject)
WINOGRANDE = TaskForm(lambda r: _text(r, "sentence")[:_blank(r)], lambda r: [_text(r, "option1"), _text(r, "option2")],
                      _winogrande_answer, target=lambda r: _text(r, "sentence")[_blank(r) + 1:].strip())
BUILT_IN = {"hellaswag": HELLASWAG, "arc_easy": ARC, "arc_challenge": ARC, "mmlu": MMLU, "winogrande": WINOGRANDE}


def template_fields(template: str) -> list[str]:
    """The record fields a context template names ({question}, {choices[0]}: question, choices)."""
    return sorted({re.split(r"[.\[]", name)[0] for _, name, _, _ in string.Formatter().parse(template) if name})


def _filled(template: str, record: dict, name: str) -> str:
    try:
        return template.format_map(record)
    except (KeyError, IndexError, AttributeError) as exc:
        raise ValueError(f"{name} names a field the record lacks ({exc})") from None


def generic_form(params: dict[str, Any]) -> TaskForm:
    """Any other task: the context from `context_template` (Python format fields over the record), the choices from
    the record's `choices` field, the gold from its `gold` field (an index, or the text of a choice); with a
    `continuation_template`, several contexts: each the context then a choice, all continued by that template's
    text."""
    template, choices_field, gold_field = params["context_template"], params["choices"], params["gold"]
    continuation = params.get("continuation_template") or ""

    def choices(record: dict) -> list[str]:
        return _texts(record.get(choices_field), choices_field)

    def gold(record: dict) -> int:
        value, options = record.get(gold_field), choices(record)
        if isinstance(value, str) and value in options and not value.strip().isdigit():
            return options.index(value)
        return _index(value, len(options), gold_field)

    def target(record: dict) -> str:
        return _filled(continuation, record, "continuation_template")

    return TaskForm(lambda record: _filled(template, record, "context_template"), choices, gold,
                    params["target_delimiter"], params["fewshot_separator"], target=target if continuation else None)


def task_form(params: dict[str, Any]) -> TaskForm:
    """The dataset's form: a built-in task by name, else the generic template."""
    if params["task"]:
        return BUILT_IN[params["task"]]
    return generic_form(params)


def _fewshot_example(form: TaskForm, example: dict) -> str:
    """One few-shot example: its text, the target delimiter, its gold choice (several contexts: its gold context,
    the delimiter, the shared continuation)."""
    gold = form.choices(example)[form.gold(example)]
    if form.target is not None:
        return form.text(example) + gold + form.target_delimiter + form.target(example)
    return form.text(example) + form.target_delimiter + gold


def fewshot_block(form: TaskForm, examples: list[dict]) -> str:
    """The few-shot examples as lm-eval's sampler writes them, each followed by the few-shot delimiter."""
    return "".join(_fewshot_example(form, example) + form.fewshot_delimiter for example in examples)


def build_item(form: TaskForm, record: dict, fewshot: str = "") -> Item:
    """A record as lm-eval's request: description + few-shot examples + the record's text as context, the target
    delimiter before each choice as its continuation; several contexts (lm-eval's multiple_input): that context and
    each choice as the choice's context (the choice's text for acc_norm: the record's text and the choice, lm-eval's
    doc_to_choice), the target delimiter and the shared target as every choice's continuation."""
    if not isinstance(record, dict):
        raise ValueError(f"expected a JSON object, got {type(record).__name__}")
    choices, context = form.choices(record), form.description(record) + fewshot + form.text(record)
    if form.target is not None:
        text, continuation = form.text(record), form.target_delimiter + form.target(record)
        return Item(context, [text + choice for choice in choices], [continuation] * len(choices), form.gold(record),
                    form.subject(record), [context + choice for choice in choices])
    return Item(context, choices, [form.target_delimiter + choice for choice in choices], form.gold(record),
                form.subject(record))
