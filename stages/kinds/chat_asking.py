"""Kind.ask's default: each question asked of a chat server in the kind's prompt (one conversation per question, a
shared conversation_column's, or a multi-turn item's turns in order), every answer journaled as it arrives."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from ..chat.generation import GenerateConfig, generate_predictions, generation_summary
from ..chat.turns import gather_turns, turn_cases
from ..core.errors import UsageError
from ..core.records import Columns, LoadResult


class PromptingKind(Protocol):
    """What the default asking reads of a kind: its prompt, its cases and the column its conversations share."""

    conversation_column: str | None

    def generation_prompt(self, question: str, options: list[str] | None, template: str | None = None) -> str: ...

    def generation_cases(self, cases: list[dict[str, Any]], questions: Columns) -> list[dict[str, Any]]: ...

    def system_prompt(self, questions: Columns) -> str | None: ...


def ask_chat(kind: PromptingKind, questions: Columns, config: GenerateConfig, model: str,
             journal: Path) -> tuple[LoadResult, dict[str, Any]]:
    """B2 of `kind`'s questions asked of `model`: the predictions (a multi-turn item's turns put back together) and
    the asking's summary. Without a [generate] system prompt, the kind's own for these questions is sent."""
    own_system = kind.system_prompt(questions) if config.system_prompt is None else None
    config = replace(config, system_prompt=own_system) if own_system else config
    turns = questions.get("turns")
    if turns and any(turns):
        if config.samples > 1:
            raise UsageError(f"[generate] samples = {config.samples} asks several replies to single questions; this "
                             "dataset's items are conversations of several turns")
        cases = turn_cases(questions["id"], turns, questions["question"],
                           lambda text: kind.generation_prompt(text, None, config.prompt_template))
        loaded = gather_turns(generate_predictions(cases, config, model, journal), questions["id"], turns)
    else:
        options = questions.get("options") or [None] * len(questions["id"])
        conversations = questions.get(kind.conversation_column) if kind.conversation_column else questions["id"]
        cases = kind.generation_cases([{"id": qid, "conversation": conversation,
                                        "prompt": kind.generation_prompt(question or "", choices,
                                                                         config.prompt_template)}
                                       for qid, conversation, question, choices in zip(
                                           questions["id"], conversations, questions["question"], options)],
                                      questions)
        loaded = generate_predictions(cases, config, model, journal)
    return loaded, generation_summary(journal, [case["id"] for case in cases], config.price, config.samples)
