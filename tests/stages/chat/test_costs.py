"""Prices per million tokens, what tokens cost, and the cost line the console prints."""
import pytest

from stages.chat.costs import check_price, cost_line, money
from stages.core.errors import UsageError


def test_a_price_table_is_checked_and_tokens_priced_per_million():
    price = check_price({"input": 2.5, "output": 10}, "d.toml", "judge")
    assert price == {"input": 2.5, "output": 10.0}
    assert money(12_000, 600, price) == pytest.approx(0.03 + 0.006)
    assert money(12_000, 600, None) is None and check_price(None, "d.toml", "judge") is None
    for bad in ({"input": 1}, {"input": -1, "output": 1}, {"input": True, "output": 1}, "cheap"):
        with pytest.raises(UsageError, match=r"\[generate\] price must be"):
            check_price(bad, "d.toml", "generate")


def test_the_cost_line_leaves_out_what_was_not_counted():
    assert cost_line("judge", {"asked": 30, "reused": 570, "tokens_in": 12000, "tokens_out": 600, "cost": 0.036}) == \
        "judge: 30 asked, 570 reused, 12,000 tokens in / 600 out, $0.04"
    assert cost_line("generate", {"asked": 2, "failed": 1, "not_judged": 0, "tokens_in": 5, "tokens_out": 7}) == \
        "generate: 2 asked, 1 failed, 5 tokens in / 7 out"
