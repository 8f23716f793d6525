"""What calls to a chat server cost: tokens in and out as the server's `usage` reports them, priced per million tokens
(`price = { input = 2.5, output = 10.0 }` in [judge] or [generate]); the same for generation and the judge."""
from __future__ import annotations

from typing import Any

from ..core.errors import UsageError

PRICE_KEYS = ("input", "output")


def check_price(price: object, origin: str, section: str) -> dict[str, float] | None:
    """A [generate] / [judge] price table, checked: dollars per million input and output tokens."""
    if price is None:
        return None
    if not isinstance(price, dict) or set(price) != set(PRICE_KEYS) or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0 for v in price.values()):
        raise UsageError(f"{origin}: [{section}] price must be {{ input = <$ per 1M tokens>, output = <$ per 1M "
                         "tokens> }, both ≥ 0")
    return {key: float(price[key]) for key in PRICE_KEYS}


def money(tokens_in: int, tokens_out: int, price: dict[str, float] | None) -> float | None:
    """The dollars these tokens cost at `price`, or None without a price."""
    if price is None:
        return None
    return (tokens_in * price["input"] + tokens_out * price["output"]) / 1_000_000


def cost_line(what: str, cost: dict[str, Any]) -> str:
    """`judge: 30 asked, 570 reused, 12,000 tokens in / 600 out, $0.04` (what was not counted is left out)."""
    parts = [f"{cost['asked']:,} asked"]
    if "reused" in cost:
        parts.append(f"{cost['reused']:,} reused")
    if cost.get("failed"):
        parts.append(f"{cost['failed']:,} failed")
    if cost.get("not_judged"):
        parts.append(f"{cost['not_judged']:,} not judged")
    parts.append(tokens_text(cost["tokens_in"], cost["tokens_out"]))
    if cost.get("cost") is not None:
        parts.append(f"${cost['cost']:,.2f}")
    return f"{what}: {', '.join(parts)}"


def tokens_text(tokens_in: int, tokens_out: int) -> str:
    """`1,235,675 tokens in / 10,120 out`: what was sent and what came back."""
    return f"{tokens_in:,} tokens in / {tokens_out:,} out"
