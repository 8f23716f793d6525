"""AlpacaEval 2's figures for one model against the baseline, from the annotator's preferences (1: the baseline's
output preferred, 2: the model's; 0 or 1.5: a draw; anything outside [1, 2] is not a preference): the win rate and its
standard error, wins / losses / draws, the discrete win rate, the average output length, and the length-controlled win
rate of AlpacaEval's GLM (length_controlled_v1) when the instructions carry AlpacaEval's instruction difficulty."""
from __future__ import annotations

import math
from typing import Any

LC_NEEDS_DIFFICULTY = ("needs AlpacaEval's instruction difficulty (an instruction_difficulty value on every "
                       "question): without it the GLM's length term is not identified from one model's preferences")


def preference_value(value: Any) -> float | None:
    """A preference as AlpacaEval reads it (0 is the old code for a draw, 1.5), or None when it is none."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    try:
        number = float(value)
    except ValueError:
        return None
    number = 1.5 if number == 0 else number
    return number if 1 <= number <= 2 else None


def win_rate_figures(preferences: list[float]) -> dict[str, Any]:
    """win_rate = mean(preference − 1) × 100, its standard error (of the mean, ddof 1) × 100, wins (> 1.5), wins of
    the baseline (< 1.5), draws (exactly 1.5) and discrete_win_rate (each preference rounded to a win, loss or draw)."""
    shifted = [p - 1 for p in preferences]
    n = len(shifted)
    mean = sum(shifted) / n if n else math.nan
    sem = math.sqrt(sum((x - mean) ** 2 for x in shifted) / (n - 1) / n) if n > 1 else math.nan
    discrete = [0.5 if x == 0.5 else float(round(x)) for x in shifted]
    return {"win_rate": mean * 100, "standard_error": sem * 100, "n_wins": sum(x > 0.5 for x in shifted),
            "n_wins_base": sum(x < 0.5 for x in shifted), "n_draws": sum(x == 0.5 for x in shifted), "n_total": n,
            "discrete_win_rate": (sum(discrete) / n * 100) if n else math.nan}


def length_controlled_winrate(preferences: list[float], lengths: list[int], baseline_lengths: list[int],
                              difficulties: list[float]) -> float:
    """AlpacaEval's length_controlled_v1: logistic regression of (preference − 1) on tanh(std_delta_len),
    instruction_difficulty and a constant (std_delta_len = (baseline length − model length) / its standard
    deviation), fitted by maximum likelihood with the preferences as probabilities; the LC win rate is the mean
    predicted preference with the length term at 0, × 100."""
    import numpy as np
    from scipy.optimize import minimize
    from scipy.special import expit, log_expit

    y = np.asarray(preferences, float) - 1
    delta = np.asarray(baseline_lengths, float) - np.asarray(lengths, float)
    spread = delta.std(ddof=1)
    scaled = delta / spread if spread > 0 else np.zeros_like(delta)
    features = np.column_stack([np.tanh(scaled), np.asarray(difficulties, float), np.ones_like(y)])

    def loss(weights: np.ndarray) -> float:
        z = features @ weights
        return -float(np.sum(y * log_expit(z) + (1 - y) * log_expit(-z)))

    def gradient(weights: np.ndarray) -> np.ndarray:
        return features.T @ (expit(features @ weights) - y)

    fit = minimize(loss, np.zeros(features.shape[1]), jac=gradient, method="L-BFGS-B", options={"gtol": 1e-10})
    without_length = features.copy()
    without_length[:, 0] = 0
    return float(expit(without_length @ fit.x).mean() * 100)


def alpaca_eval_figures(preferences: list[Any], lengths: list[int], baseline_lengths: list[int],
                        difficulties: list[float | None] | None = None) -> dict[str, Any]:
    """Every figure AlpacaEval's leaderboard prints for one model, from the preferences of the items both models
    answered (with each output's length in characters); values that are no preference are counted as set aside."""
    read = [preference_value(p) for p in preferences]
    kept = [i for i, p in enumerate(read) if p is not None]
    figures = win_rate_figures([read[i] for i in kept])
    figures["avg_length"] = int(sum(lengths) / len(lengths)) if lengths else None
    figures["not_preferences"] = len(read) - len(kept)
    usable = difficulties is not None and kept and all(difficulties[i] is not None for i in kept)
    if usable:
        figures["length_controlled_winrate"] = length_controlled_winrate(
            [read[i] for i in kept], [lengths[i] for i in kept], [baseline_lengths[i] for i in kept],
            [difficulties[i] for i in kept])
        figures["length_controlled_note"] = None
    else:
        figures["length_controlled_winrate"] = None
        figures["length_controlled_note"] = LC_NEEDS_DIFFICULTY
    return figures


SYSTEM = "You compare two AI models' answers to the same instruction and say which answer a careful person prefers."
TEMPLATE = ("Instruction:\n{instruction}\n\nModel m answered:\n{output_1}\n\nModel M answered:\n{output_2}\n\n"
            "Which model's answer is better? Reply with the single letter m or M and nothing else.")


def shows_model_first(item: str) -> bool:
    """Whether the model's answer is output_1 for this item: the order is drawn from the item's id (AlpacaEval
    randomizes it per instruction, so position bias cancels out over the set)."""
    import hashlib

    return hashlib.sha256(item.encode()).digest()[0] % 2 == 1


def annotator_prompt(prompts: dict[str, str], instruction: str, output_1: str, output_2: str) -> str:
    """The annotator's question: its template with the instruction and the two outputs."""
    return prompts["template"].format(instruction=instruction, output_1=output_1, output_2=output_2)


def preference_of(reply: str, top_logprobs: dict[str, float] | None, model_first: bool) -> float | None:
    """The preference for the model's answer in AlpacaEval's scale (1 the baseline's, 2 the model's): from the first
    token's logprobs of m and M when the server gave them (1 + P(M) / (P(m) + P(M))), else from the letter replied;
    None when neither says."""
    import math

    second = None
    if top_logprobs:
        found = {token.strip(): math.exp(value) for token, value in top_logprobs.items() if token.strip() in "mM"
                 and token.strip()}
        if found:
            second = found.get("M", 0.0) / (found.get("m", 0.0) + found.get("M", 0.0))
    if second is None:
        letter = reply.strip().strip(".:*'\"")
        second = {"m": 0.0, "M": 1.0}.get(letter)
    if second is None:
        return None
    return 1 + (1 - second if model_first else second)

