"""A limit on what one run may spend on the judge for one dataset — calls and / or money — kept in a ledger file that
every judge stage of the run (every model's, the pairwise one, in any worker process) reserves from under a lock.
Calls still in flight count against max_cost at the mean price of the calls that came back, so `concurrency` calls
at once overshoot the money by no more than the calls that started before any price was known."""
from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import Any

import orjson

from ..chat.costs import money


class Budget:
    """[judge] max_calls / max_cost for one run of one dataset: a call is made only once reserve() says yes, and its
    tokens are spent (priced at `price`) when its reply arrives; until then it counts at the mean priced call."""

    def __init__(self, ledger: Path, max_calls: int | None, max_cost: float | None,
                 price: dict[str, float] | None) -> None:
        self.ledger, self.max_calls, self.max_cost, self.price = ledger, max_calls, max_cost, price

    def _update(self, change: Any) -> Any:
        self.ledger.parent.mkdir(parents=True, exist_ok=True)
        with open(self.ledger, "a+b") as handle:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            try:
                handle.seek(0)
                raw = handle.read()
                spent = orjson.loads(raw) if raw else {"calls": 0, "returned": 0, "priced": 0, "cost": 0.0}
                answer, changed = change(spent)
                if changed:
                    handle.seek(0)
                    handle.truncate()
                    handle.write(orjson.dumps(spent))
                    handle.flush()
                    os.fsync(handle.fileno())
                return answer
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)

    def reserve(self) -> bool:
        """Take one call from the budget: False (nothing taken) once the calls or the money are used up."""
        def take(spent: dict[str, Any]) -> tuple[bool, bool]:
            if (self.max_calls is not None and spent["calls"] >= self.max_calls) or (
                    self.max_cost is not None and committed_cost(spent) >= self.max_cost):
                return False, False
            spent["calls"] += 1
            return True, True

        return self._update(take)

    def spend(self, record: dict[str, Any]) -> None:
        """Count a reserved call as back, and what its reply cost (its tokens at the price) against max_cost."""
        cost = money(record.get("tokens_in") or 0, record.get("tokens_out") or 0, self.price) or 0.0

        def count(spent: dict[str, Any]) -> tuple[None, bool]:
            spent["returned"] += 1
            spent["priced"] += cost > 0
            spent["cost"] += cost
            return None, True

        self._update(count)


def committed_cost(spent: dict[str, Any]) -> float:
    """Money spent plus the calls still in flight at the mean price of the priced ones (nothing before one is known)."""
    in_flight = spent["calls"] - spent["returned"]
    return spent["cost"] + (in_flight * spent["cost"] / spent["priced"] if spent["priced"] else 0.0)
