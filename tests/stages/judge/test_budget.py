"""The judge's budget: calls and money reserved from one ledger, calls in flight priced at the mean returned call."""
from stages.judge.budget import Budget

PRICE = {"input": 1_000_000.0, "output": 0.0}  # $1 a prompt token


def _reply(tokens_in: int) -> dict:
    return {"prediction": "ok", "tokens_in": tokens_in, "tokens_out": 3}


def test_calls_in_flight_count_at_the_mean_price_so_two_at_once_stop_at_the_limit(tmp_path):
    budget = Budget(tmp_path / "ledger.json", None, 100.0, PRICE)
    assert budget.reserve() and budget.reserve()  # nothing priced yet: both start
    budget.spend(_reply(60))
    assert not budget.reserve()  # $60 back + one call in flight at $60 = $120 ≥ $100
    budget.spend(_reply(60))
    assert not budget.reserve()


def test_one_at_a_time_the_money_stops_the_call_after_the_limit_is_passed(tmp_path):
    budget = Budget(tmp_path / "ledger.json", None, 100.0, PRICE)
    assert budget.reserve()
    budget.spend(_reply(60))
    assert budget.reserve()  # $60 < $100, nothing in flight
    budget.spend(_reply(60))
    assert not budget.reserve()


def test_a_failed_call_frees_its_place_without_lowering_the_mean(tmp_path):
    budget = Budget(tmp_path / "ledger.json", None, 100.0, PRICE)
    assert budget.reserve() and budget.reserve()
    budget.spend(_reply(40))
    assert budget.reserve()  # $40 + one in flight at $40 = $80
    budget.spend({"error": "timed out", "attempts": 3})
    assert budget.reserve()  # still $80: the failed call is no longer in flight
    assert not budget.reserve()  # $40 + two in flight at $40 (not at a mean of $20) = $120


def test_the_call_limit_is_shared_by_every_stage_through_the_ledger(tmp_path):
    one, other = (Budget(tmp_path / "ledger.json", 3, None, None) for _ in range(2))
    assert one.reserve() and other.reserve()
    one.spend(_reply(10))
    assert other.reserve() and not one.reserve() and not other.reserve()
