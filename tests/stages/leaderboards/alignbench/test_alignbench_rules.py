"""AlignBench as its show_result computes it: the score read from the reply's last {…} (else 综合得分 anywhere), the
dimensions of a subcategory's answer type, and 中文推理 / 中文语言 / 总分 by hand."""
import pytest

from stages.leaderboards.alignbench.rules import (
    LANGUAGE,
    REASONING,
    TEMPLATE,
    alignbench_figures,
    dimensions_of,
    judge_prompt,
    read_ratings,
)

CONFIG = {"template": TEMPLATE, "subcategory_mapping": {"初等数学": "数学计算"},
          "dimension_set": {"数学计算": ["事实正确性", "逻辑连贯性"]},
          "dimension_definition": {"事实正确性": "答案是否正确", "逻辑连贯性": "推理是否连贯"}}


def test_the_score_is_the_last_dicts_overall_else_the_first_overall_anywhere():
    reply = "评价……{'事实正确性': 3, '综合得分': 2}\n再想想：{'事实正确性': 9, '逻辑连贯性': 8, '综合得分': 8}"
    assert read_ratings(reply) == ({"事实正确性": 9, "逻辑连贯性": 8, "综合得分": 8}, 8.0)
    assert read_ratings("综上，'综合得分': 6.5 分") == ({}, 6.5)
    assert read_ratings("没有分数") == ({}, None)


def test_a_prompt_numbers_its_subcategorys_dimensions():
    assert dimensions_of("初等数学", CONFIG) == ["事实正确性", "逻辑连贯性"] and dimensions_of("其他", CONFIG) == []
    prompt = judge_prompt("数学计算", "初等数学", "1+1=?", "2", "二", CONFIG)
    assert "这道题属于数学计算类" in prompt and "1. 事实正确性: 答案是否正确\n2. 逻辑连贯性: 推理是否连贯\n" in prompt
    assert prompt.endswith("[助手的答案开始]\n二\n[助手的答案结束]\n")


def test_group_means_of_category_means_by_hand():
    scores = [("数学计算", 4.0), ("数学计算", 6.0), ("逻辑推理", 7.0)] + [(c, 8.0) for c in LANGUAGE] + [("基本任务", None)]
    found = alignbench_figures(scores)
    assert found["数学计算"] == 5.0 and found["中文推理"] == pytest.approx((5.0 + 7.0) / 2)
    assert found["中文语言"] == 8.0 and found["总分"] == pytest.approx((6.0 + 8.0) / 2)
    assert (found["rated"], found["unparsed"]) == (3 + len(LANGUAGE), 1)
    partial = alignbench_figures([(REASONING[0], 5.0)])
    assert partial["中文推理"] is None and partial["总分"] is None  # a group missing a category has no mean
