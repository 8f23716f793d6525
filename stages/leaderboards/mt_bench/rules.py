"""MT-Bench (FastChat's llm_judge): each turn of a model's two-turn conversation rated 1–10 by the judge with
FastChat's prompts — single-v1 for turn 1, single-v1-multi-turn (the whole conversation) for turn 2, and the math
variants, which show the reference answers, for math, reasoning and coding questions — and per model the turn 1,
turn 2 and overall means as FastChat's show_result gives them, with bootstrap intervals."""
from __future__ import annotations

from typing import Any

from ...judge.verdicts import fastchat_rating
from ..asking import TurnCall

NEED_REFERENCE = ("math", "reasoning", "coding", "arena-hard-200")  # FastChat's NEED_REF_CATS
PROMPT_NAMES = {(1, False): "single-v1", (2, False): "single-v1-multi-turn", (1, True): "single-math-v1",
                (2, True): "single-math-v1-multi-turn"}
PAIR_PROMPT_NAMES = {(1, False): "pair-v2", (2, False): "pair-v2-multi-turn", (1, True): "pair-math-v1",
                     (2, True): "pair-math-v1-multi-turn"}


def prompt_names_missing(prompts: dict[str, dict[str, str]], pairwise: bool = False) -> list[str]:
    """FastChat's single-answer (or pairwise) prompts that a judge_prompts.jsonl lacks."""
    return sorted(set((PAIR_PROMPT_NAMES if pairwise else PROMPT_NAMES).values()) - set(prompts))


def turn_calls(model: str, item: str, category: str | None, questions: list[str], answers: list[str],
               references: list[str] | None, prompts: dict[str, dict[str, str]]) -> list[TurnCall]:
    """The ratings of one model's conversation on one question, one per turn it answered (at most two, as FastChat):
    the prompt named for the turn and whether the category needs the reference (when the question has one)."""
    reference = category in NEED_REFERENCE and bool(references)
    calls = []
    for turn in range(1, min(len(questions), len(answers), 2) + 1):
        name = PROMPT_NAMES[(turn, reference)]
        values: dict[str, str] = {}
        if turn == 1:
            values = {"question": questions[0], "answer": answers[0]}
        else:
            values = {"question_1": questions[0], "question_2": questions[1], "answer_1": answers[0],
                      "answer_2": answers[1]}
        if reference:
            values.update({f"ref_answer_{i + 1}": text for i, text in enumerate(references[:2])})
        template = prompts[name]
        calls.append(TurnCall(model, item, turn, name, template["system_prompt"],
                              template["prompt_template"].format(**values)))
    return calls


def pair_turn_calls(model: str, baseline: str, item: str, category: str | None, questions: list[str],
                    answers: list[str], baseline_answers: list[str], references: list[str] | None,
                    prompts: dict[str, dict[str, str]]) -> list[TurnCall]:
    """FastChat's pairwise-baseline judging of one question: per turn both games — the model as A (game 1), then the
    baseline as A (game 2) — in pair-v2 / pair-v2-multi-turn (the math variants with the references); `prompt_name`
    carries the game (<name>#g1, <name>#g2)."""
    reference = category in NEED_REFERENCE and bool(references)
    calls = []
    for turn in range(1, min(len(questions), len(answers), len(baseline_answers), 2) + 1):
        name = PAIR_PROMPT_NAMES[(turn, reference)]
        for game, (a, b) in enumerate(((answers, baseline_answers), (baseline_answers, answers)), start=1):
            if turn == 1:
                values = {"question": questions[0], "answer_a": a[0], "answer_b": b[0]}
            else:
                values = {"question_1": questions[0], "question_2": questions[1], "answer_a_1": a[0],
                          "answer_a_2": a[1], "answer_b_1": b[0], "answer_b_2": b[1]}
            if reference:
                values.update({f"ref_answer_{i + 1}": text for i, text in enumerate(references[:2])})
            template = prompts[name]
            calls.append(TurnCall(model, item, turn, f"{name}#g{game}", template["system_prompt"],
                                  template["prompt_template"].format(**values)))
    return calls


def pair_winner(reply: str) -> str | None:
    """FastChat's pairwise verdict: [[A]], else [[B]], else [[C]] (a tie); None for none (its "error")."""
    for mark, winner in (("[[A]]", "A"), ("[[B]]", "B"), ("[[C]]", "tie")):
        if mark in reply:
            return winner
    return None


def pair_outcome(game_1: str | None, game_2: str | None) -> float | None:
    """One turn's outcome for the model (1 a win, 0 a loss, 0.5 a tie or the two games disagreeing), as FastChat's
    show_result counts it; None when a game has no verdict (FastChat drops those)."""
    if game_1 is None or game_2 is None:
        return None
    model_1 = {"A": "model", "B": "baseline", "tie": "tie"}[game_1]
    model_2 = {"A": "baseline", "B": "model", "tie": "tie"}[game_2]
    if model_1 == "tie" or model_1 != model_2:
        return 0.5
    return 1.0 if model_1 == "model" else 0.0


def pair_figures(outcomes: list[float | None]) -> dict[str, Any]:
    """FastChat's pairwise-baseline figures over the turns with both verdicts: win, loss, tie, win_rate, loss_rate and
    win_rate_adjusted (a tie half a win)."""
    kept = [o for o in outcomes if o is not None]
    total = len(kept)
    win, loss = kept.count(1.0), kept.count(0.0)
    tie = total - win - loss
    return {"win": win, "loss": loss, "tie": tie, "win_rate": win / total if total else None,
            "loss_rate": loss / total if total else None,
            "win_rate_adjusted": (win + 0.5 * tie) / total if total else None,
            "rated": total, "unparsed": len(outcomes) - total}


def rating_of(reply: str) -> float | None:
    """A turn's rating as FastChat reads it: [[x]], else [x]; None when there is none (its −1)."""
    return fastchat_rating(reply).value


def mt_bench_figures(ratings: list[tuple[str, int, float | None]]) -> dict[str, Any]:
    """One model's figures from (item, turn, rating) rows: turn_1 and turn_2 (means over the questions rated in that
    turn), overall (the mean over every rated turn), each with its percentile-bootstrap 95% interval over items, and
    the counts rated and unparsed."""
    from ...core.intervals import bootstrap_mean_interval

    figures: dict[str, Any] = {}
    parsed = [(item, turn, value) for item, turn, value in ratings if value is not None]
    for name, picked in (("turn_1", [v for _, t, v in parsed if t == 1]), ("turn_2", [v for _, t, v in parsed if t == 2]),
                         ("overall", [v for _, _, v in parsed])):
        figures[name] = sum(picked) / len(picked) if picked else None
        low, high = bootstrap_mean_interval(picked) if len(picked) > 1 else (figures[name], figures[name])
        figures[f"{name}_interval"] = None if not picked else [low, high]
    figures["rated"] = len(parsed)
    figures["unparsed"] = len(ratings) - len(parsed)
    return figures
