"""dataset.toml's [leaderboard]: a name evalpipe reproduces, the keys its rules need as text, one line per problem."""
import pytest

from stages.core.errors import UsageError
from stages.leaderboards.config import LeaderboardConfig, read_leaderboard_config


def test_a_valid_table_and_none():
    assert read_leaderboard_config({}, "d.toml") is None
    found = read_leaderboard_config({"name": "mt_bench", "prompts": "judge_prompts.jsonl"}, "d.toml")
    assert found == LeaderboardConfig(name="mt_bench", prompts="judge_prompts.jsonl")


@pytest.mark.parametrize("table, message", [
    ({"name": "mt_bench", "prompts": "p.jsonl", "extra": 1}, r"unknown \[leaderboard\] key\(s\) extra"),
    ({"name": "helm"}, r"name 'helm' is not one evalpipe reproduces \(.*alpaca_eval.*\)"),
    ({"name": "mt_bench"}, r"mt_bench needs prompts as text \(prompts is not\)"),
    ({"name": "mt_bench", "prompts": 3}, r"\(prompts is not\)"),
])
def test_each_problem_is_one_line(table, message):
    with pytest.raises(UsageError, match=message):
        read_leaderboard_config(table, "d.toml")
