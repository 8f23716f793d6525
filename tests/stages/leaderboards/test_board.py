"""The leaderboards' one registry: each looked up by its dataset.toml name or by the tool `evalpipe import` reads,
an unknown name one line naming the known ones; B5L's body notes items left unjudged for want of a judge."""
import pytest

from stages.core.errors import UsageError
from stages.leaderboards.board import LEADERBOARDS, NEEDS_JUDGE, get_leaderboard, judged_body, leaderboard_by_tool


def test_every_leaderboard_by_name_and_by_tool():
    assert set(LEADERBOARDS.names()) >= {"alpaca_eval", "arena_hard", "mt_bench", "alignbench"}
    for name, tool in (("alpaca_eval", "alpaca-eval"), ("arena_hard", "arena-hard"), ("mt_bench", "mt-bench"),
                       ("alignbench", "alignbench")):
        board = get_leaderboard(name)
        assert (board.name, board.tool) == (name, tool) and leaderboard_by_tool(tool) is board
    assert leaderboard_by_tool("lm-eval") is None
    with pytest.raises(UsageError, match="alpaca_eval"):
        get_leaderboard("helm")


def test_the_body_notes_unjudged_items_only_without_a_judge_to_ask():
    class Asks:
        def __init__(self, asks):
            self._asks = asks

        def asks(self):
            return self._asks

    assert judged_body({"x": 1}, {"not_judged": 3}, Asks(False)) == {"figures": {"x": 1}, "note": NEEDS_JUDGE}
    assert judged_body({"x": 1}, {"not_judged": 3}, Asks(True)) == {"figures": {"x": 1}}
    assert judged_body({"x": 1}, {"not_judged": 0}, Asks(False)) == {"figures": {"x": 1}}
