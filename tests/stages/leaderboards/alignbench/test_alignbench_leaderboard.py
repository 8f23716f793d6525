"""AlignBench scored for one model: each answer rated against the reference in its category's prompt, the score from
the reply's last {…}, the dimension ratings kept, and the figures per category."""
import json

import pytest

from stages.leaderboards.board import get_leaderboard
from tests.stages.leaderboards.alignbench.test_alignbench_rules import CONFIG
from tests.stages.leaderboards.scoring_double import ScoringDouble


def test_each_answer_is_rated_and_the_figures_follow(tmp_path):
    (tmp_path / "alignbench.json").write_text(json.dumps(CONFIG, ensure_ascii=False))
    rows = {"id": ["1", "2", "3"], "question": ["1+1=?", "2+2=?", "你好"], "golds": [["2"], ["4"], ["你好"]],
            "category": ["数学计算", "数学计算", "基本任务"], "subcategory": ["初等数学", "初等数学", None]}
    replies = {"1": "{'事实正确性': 9, '逻辑连贯性': 8, '综合得分': 8}", "2": "'综合得分': 4", "3": "无法评分"}
    scoring = ScoringDouble("m", {"name": "alignbench", "prompts": "alignbench.json"}, rows,
                            {"m": {"1": ["二"], "2": ["四"], "3": ["你好呀"]}}, tmp_path,
                            judge=lambda call: replies[call.item])
    board = get_leaderboard("alignbench")
    scored = board.score(scoring)
    assert "[参考答案开始]\n2\n[参考答案结束]" in scoring.asked[0].prompt
    assert scored.rows["score"] == [8.0, 4.0, None]
    assert json.loads(scored.rows["ratings"][0]) == {"事实正确性": 9, "逻辑连贯性": 8, "综合得分": 8}
    figures = scored.body["figures"]
    assert figures["数学计算"] == pytest.approx(6.0) and figures["基本任务"] is None
    assert (figures["rated"], figures["unparsed"]) == (2, 1) and figures["总分"] is None
    assert board.item_values(scored.rows) == ("alignbench:score", ["1", "2", "3"], [8.0, 4.0, None])
