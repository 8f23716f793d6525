"""One side of an agent loop asked step by step (BFCL's multi-turn agent, tau2's agent and user simulator): each
request journaled by its step id and answered from the journal when it was asked with the same settings."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .client import ChatClient, CircuitBreaker, ask_with_breaker
from .generation import GenerateConfig, answer_record, request_key
from .journal import AnswerStore, answered, failure_record


@dataclass
class Asker:
    """What each step is asked with: the client, the journal read at the start and appended to, the breaker."""

    config: GenerateConfig
    client: ChatClient
    known: dict[Any, dict[str, Any]]
    store: AnswerStore
    breaker: CircuitBreaker
    step_ids: list[str] = field(default_factory=list)  # every request id consulted, for the summary
    null_is_empty: bool = False  # a reply whose content is null is an empty reply (tau2), not a malformed one

    def reply(self, step_id: str, messages: list[dict], tools: list | None) -> tuple[dict | None, str | None, bool]:
        """(the journal record of this request's reply, why there is none, whether it was asked now)."""
        self.step_ids.append(step_id)
        key = request_key(self.config, self.client.model, "", tools=tools, messages=messages)
        record = self.known.get(step_id)
        if answered(record, key):
            return record, None, False
        case = {"id": step_id, "key": key}
        reply, error, attempts = ask_with_breaker(self.config, self.breaker,
                                                  lambda: self.client.ask_messages(messages, tools,
                                                                                   self.null_is_empty))
        if error is None:
            return answer_record(case, reply, attempts), None, True
        self.store.append(failure_record(case, error, attempts))
        return None, f"generation failed after {attempts} attempt(s): {error}", True
