"""A leaderboard's section of a dataset's report: its figures per model under the names its own tool prints, which
columns to show in the text report and report.html (in that tool's order), and what the figures rest on."""
from __future__ import annotations

from typing import Any

from .alignbench import LANGUAGE, REASONING
from .alpaca_eval import LC_NEEDS_DIFFICULTY

TITLES = {"alpaca_eval": "AlpacaEval 2", "arena_hard": "Arena-Hard-Auto", "mt_bench": "MT-Bench",
          "alignbench": "AlignBench", "mt_bench_pairwise": "MT-Bench (pairwise against the baseline)"}
LEADERBOARD_TOOLS = ("alpaca-eval",)  # `evalpipe import` names whose provenance is a leaderboard's, not a harness's
COLUMNS = {"alpaca_eval": ("length_controlled_winrate", "win_rate", "standard_error", "n_wins", "n_wins_base",
                           "n_draws", "n_total", "discrete_win_rate", "avg_length"),
           "arena_hard": ("score", "lower", "upper", "style_controlled_score", "battles", "avg_length"),
           "mt_bench": ("turn_1", "turn_2", "overall", "rated", "unparsed"),
           "alignbench": (*REASONING, *LANGUAGE, "中文推理", "中文语言", "总分", "rated", "unparsed"),
           "mt_bench_pairwise": ("win", "loss", "tie", "win_rate", "loss_rate", "win_rate_adjusted", "rated",
                                 "unparsed")}
UNITS = {"alpaca_eval": "percent", "arena_hard": "percent", "mt_bench": "score", "alignbench": "score",
         "mt_bench_pairwise": "rate"}
PRIMARY = {"alpaca_eval": "length_controlled_winrate", "arena_hard": "score", "mt_bench": "overall",
           "alignbench": "总分", "mt_bench_pairwise": "win_rate_adjusted"}
FALLBACK = {**PRIMARY, "alpaca_eval": "win_rate"}  # the headline when the primary figure cannot be computed


def leaderboard_section(board: dict[str, Any], figures: dict[str, dict[str, Any]], counts: dict[str, dict[str, Any]],
                        published: dict[str, dict[str, Any]] | None = None, notes: list[str] = ()) -> dict[str, Any]:
    """The report's section for one leaderboard: title, judge, baseline, columns, the headline figure, and per model
    its figures; items a model answered without a recorded verdict are counted (`not_judged`); the figures the
    leaderboard published for a model, when its import found them, beside (`published`)."""
    name = board["name"]
    primary = PRIMARY[name]
    if any(found.get(primary) is None for found in figures.values()):
        primary = FALLBACK[name]
    notes = sorted({found["length_controlled_note"] for found in figures.values()
                    if found.get("length_controlled_note")} & {LC_NEEDS_DIFFICULTY} | set(notes))
    return {"title": TITLES[name], "judge": board.get("judge"), "baseline": board.get("baseline"),
            "columns": list(COLUMNS[name]), "headline": primary, "unit": UNITS[name], "notes": notes,
            "models": {model: {**{c: found.get(c) for c in COLUMNS[name]}, "not_judged": counts[model]["not_judged"]}
                       for model, found in sorted(figures.items(), key=lambda kv: -(kv[1].get(primary) or 0))},
            "published": {model: values for model, values in (published or {}).items() if model in figures}}
