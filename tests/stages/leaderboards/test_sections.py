"""A leaderboard's report section: its figures per model best first, the published ones beside, a published-only
model shown, the baseline not, and the headline's interval where the rules computed one."""
from stages.leaderboards.sections import SectionForm, headline_interval, leaderboard_section


def test_a_leaderboard_section_carries_its_headline_interval():
    form = SectionForm("Arena-Hard-Auto", ("score", "lower", "upper", "battles"), "percent", "score",
                       interval=("lower", "upper"), interval_n="battles", interval_method="bootstrap over battles")
    section = leaderboard_section(form, {"baseline": "gpt-4-0314"}, {
        "m": {"score": 60.0, "lower": 57.5, "upper": 62.5, "battles": 1000}, "n": {"score": 40.0}}, {})
    assert section["intervals"] == {"m": {"low": 57.5, "high": 62.5, "n": 1000, "method": "bootstrap over battles"}}
    single = SectionForm("MT-Bench", ("overall",), "score", "overall", interval=("overall_interval",),
                         interval_n="rated")
    assert headline_interval(single, "overall", {"overall_interval": [6.9, 7.4], "rated": 160})["high"] == 7.4
    assert headline_interval(single, "overall", {"overall_interval": None}) is None
    fallback = SectionForm("AlpacaEval 2", ("lc", "win_rate"), "percent", "lc", fallback="win_rate",
                           interval=("lc_low", "lc_high"))
    assert headline_interval(fallback, "win_rate", {"lc_low": 1.0, "lc_high": 2.0}) is None


def test_models_best_first_with_published_figures_beside_and_no_baseline_row():
    form = SectionForm("AlpacaEval 2", ("length_controlled_winrate", "win_rate"), "percent",
                       "length_controlled_winrate", fallback="win_rate")
    section = leaderboard_section(form, {"baseline": "gpt4_turbo", "judge": "weighted_alpaca_eval_gpt4_turbo"}, {
        "a": {"length_controlled_winrate": None, "win_rate": 20.0}, "b": {"length_controlled_winrate": 30.0,
                                                                          "win_rate": 35.0}},
        {"a": {"not_judged": 2}}, published={"c": {"win_rate": 50.0}, "gpt4_turbo": {"win_rate": 50.0}})
    assert section["headline"] == "win_rate"  # a model lacks the length-controlled figure: the fallback for all
    assert list(section["models"]) == ["b", "a", "c"]
    assert section["models"]["a"] == {"length_controlled_winrate": None, "win_rate": 20.0, "not_judged": 2}
    assert section["published"] == {"c": {"win_rate": 50.0}} and section["intervals"] == {}
