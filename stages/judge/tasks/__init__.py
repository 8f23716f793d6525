"""Benchmarks scored by a judge as their own scripts score them (SimpleQA, Humanity's Last Exam): each a registered
task of the instruction kind (`task = "…"`) with the script's grader template (given as a file), its reading of the
judge's reply and its figures."""
from __future__ import annotations

import string
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...core.errors import UsageError
from ...core.registry import Registry
from ..verdicts import Verdict, parse_verdict


@dataclass(frozen=True)
class JudgedTask:
    """One benchmark's rules: the placeholders of its script's template (→ the judge's render_fields names), how its
    script reads the judge's reply and its figures over the judged items (the items it asks are the instruction
    kind's: stages/kinds/instruction/tasks.py)."""

    name: str
    reference: str  # the script, file and function its rules come from (said in the report)
    placeholders: dict[str, str]  # the script's template names → question / expected / prediction
    read_reply: Callable[[str], Verdict]
    figures: Callable[[list[dict[str, Any] | None], int], dict[str, Any]]  # per judged item its verdict details, and
    # how many items had no answer to judge
    figures_line: Callable[[dict[str, Any]], str]
    headline: str  # the figure the dataset is read by in the summary (the one its script reports as the score)
    headline_unit: str  # "percent" or "rate"
    headline_interval: Callable[[dict[str, Any]], dict[str, Any] | None] = lambda figures: None

    def template(self, text: str, origin: str) -> str:
        """The script's template (a file's text, stripped as the scripts strip theirs) with its placeholders renamed
        to the judge's; a name the script does not use, or a field with a conversion or format spec (a nested field,
        padding), is one line."""
        renamed = []
        try:
            parsed = list(string.Formatter().parse(text.strip()))
        except ValueError as exc:
            raise UsageError(f"{origin}: the {self.name} template is malformed ({exc})") from None
        for literal, name, spec, conversion in parsed:
            renamed.append(literal.replace("{", "{{").replace("}", "}}"))
            if name is None:
                continue
            if name not in self.placeholders:
                raise UsageError(f"{origin}: the {self.name} template names {{{name}}}; {self.reference} fills "
                                 f"{', '.join('{' + p + '}' for p in self.placeholders)}")
            if spec or conversion:
                field = "{" + name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
                raise UsageError(f"{origin}: the {self.name} template formats {field}; {self.reference} shows each "
                                 "field as it stands, without a conversion or format spec")
            renamed.append("{" + self.placeholders[name] + "}")
        shown = {self.placeholders[name] for _, name, _, _ in parsed if name is not None}
        if "prediction" not in shown:
            answer = next(theirs for theirs, ours in self.placeholders.items() if ours == "prediction")
            raise UsageError(f"{origin}: the {self.name} template never shows the answer ({{{answer}}})")
        return "".join(renamed)


JUDGED_TASKS: Registry[JudgedTask] = Registry("judged task", "stages.judge.tasks")  # stages/judge/tasks/<name>.py


def register_judged_task(task: JudgedTask) -> JudgedTask:
    """Make a judged task available by its name (dataset.toml `task`, with kind = "instruction")."""
    return JUDGED_TASKS.register(task.name)(task)


def judged_task(name: str) -> JudgedTask:
    """The judged task called `name`."""
    return JUDGED_TASKS.get(name)


def judged_task_names() -> list[str]:
    return JUDGED_TASKS.names()


def task_of_scale(scale: str) -> JudgedTask | None:
    """The judged task whose own reading a criterion on `scale` uses (its scale is the task's name), else None."""
    return judged_task(scale) if scale in JUDGED_TASKS.names() else None


def read_judge_reply(reply: str, scale: str) -> Verdict:
    """A judge's reply on `scale`: by the judged task's script when the scale is a task's, else parse_verdict."""
    task = task_of_scale(scale)
    return parse_verdict(reply, scale) if task is None else task.read_reply(reply)
