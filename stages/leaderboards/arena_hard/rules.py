"""Arena-Hard-Auto's scores (its show_result.py, v0.1): two games per question and model against the baseline, each
judged with five-way verdicts; a strong preference counts as three battles, a tie half a win each way; a Bradley–Terry
fit (logistic regression on the Elo scale) anchored at the baseline's 1000 gives each model's score as its expected
win rate against the baseline in percent, with a 95% interval from a bootstrap over battles; and the style-controlled
score beside it (the same fit with answer length and markdown headers, lists and bold as features)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ...judge.bradley_terry import bradley_terry

FIVE_WAY = ("A>>B", "A>B", "A=B", "B>A", "B>>A")  # a game's verdicts, the first answer shown as A
STRONG = 3  # battles a strong preference (A>>B, B>>A) counts as
BOOTSTRAP_ROUNDS = 100
GAME_WINNERS = ({"A>>B": ("baseline", STRONG), "A>B": ("baseline", 1), "A=B": ("tie", 1), "B>A": ("model", 1),
                 "B>>A": ("model", STRONG)},  # game 1: the baseline is A
                {"A>>B": ("model", STRONG), "A>B": ("model", 1), "A=B": ("tie", 1), "B>A": ("baseline", 1),
                 "B>>A": ("baseline", STRONG)})  # game 2: the model is A
_HEADERS = re.compile(r"^#{1,6}\s", re.MULTILINE)
_LISTS = (re.compile(r"^\s*\d+\.\s", re.MULTILINE), re.compile(r"^\s*[-*+]\s", re.MULTILINE))
_BOLD = (re.compile(r"\*\*[^*\n]+\*\*"), re.compile(r"__[^_\n]+__"))


@dataclass(frozen=True)
class Battle:
    """One battle row of show_result: the baseline against a model on one question, and who won it."""

    model: str
    item: str
    winner: str  # "baseline", "model" or "tie"


def game_battles(model: str, item: str, game_labels: tuple[str | None, str | None]) -> list[Battle]:
    """The battles of one question's two games (labels of game 1, baseline as A, and game 2, the model as A); a game
    without a verdict gives none."""
    battles = []
    for game, label in enumerate(game_labels):
        found = GAME_WINNERS[game].get(label) if label is not None else None
        if found is not None:
            battles.extend([Battle(model, item, found[0])] * found[1])
    return battles


def elo_ratings(battles: list[Battle], baseline: str, style: list[list[float]] | None = None) -> dict[str, float]:
    """Each model's Elo rating from show_result's logistic regression — the one Bradley–Terry fit, a win counted
    twice for its winner and a tie once each way (score ½, weight 2), the style features beside the models when
    given — with the baseline's at 1000."""
    import numpy as np

    models = sorted({baseline, *(b.model for b in battles)})
    index = {model: i for i, model in enumerate(models)}
    score = np.array([{"baseline": 1.0, "model": 0.0, "tie": 0.5}[b.winner] for b in battles])
    ratings, _ = bradley_terry(np.full(len(battles), index[baseline]), np.array([index[b.model] for b in battles]),
                               score, len(models), np.full(len(battles), 2.0),
                               None if style is None else np.asarray(style, float), anchor=index[baseline])
    return {model: float(ratings[index[model]]) for model in models}


def win_rate(rating: float, baseline_rating: float = 1000.0) -> float:
    """The expected win rate against the baseline, in percent."""
    return 100 / (1 + 10 ** ((baseline_rating - rating) / 400))


def style_features(answer: str) -> tuple[int, int, int, int]:
    """(length in characters, markdown headers, list items, bold spans) of an answer."""
    return (len(answer), len(_HEADERS.findall(answer)), sum(len(p.findall(answer)) for p in _LISTS),
            sum(len(p.findall(answer)) for p in _BOLD))


def style_matrix(battles: list[Battle], answers: dict[str, dict[str, str]], baseline: str) -> list[list[float]]:
    """Per battle the normalized style differences (baseline − model) / (baseline + model) of each feature (0 when
    both are 0), each standardized over the battles."""
    import numpy as np

    base = np.array([style_features(answers[baseline][b.item]) for b in battles], float)
    them = np.array([style_features(answers[b.model][b.item]) for b in battles], float)
    total = base + them
    diff = np.divide(base - them, total, out=np.zeros_like(total), where=total > 0)
    spread = diff.std(axis=0)
    diff = (diff - diff.mean(axis=0)) / np.where(spread > 0, spread, 1)
    return diff.tolist()


def arena_hard_figures(battles: list[Battle], baseline: str, answers: dict[str, dict[str, str]],
                       seed: int = 0) -> dict[str, dict[str, Any]]:
    """Per model (the baseline included, at 50): score, lower and upper (the 2.5th and 97.5th percentiles of the
    bootstrap's ratings as win rates), the style-controlled score, battles and average answer length in
    characters."""
    import numpy as np

    point = elo_ratings(battles, baseline)
    rng = np.random.default_rng(seed)
    rounds = []
    for _ in range(BOOTSTRAP_ROUNDS):
        drawn = rng.integers(0, len(battles), len(battles))
        rounds.append(elo_ratings([battles[i] for i in drawn], baseline))
    styled = elo_ratings(battles, baseline, style_matrix(battles, answers, baseline))
    figures = {}
    for model, rating in sorted(point.items(), key=lambda kv: -kv[1]):
        drawn_ratings = [found.get(model, rating) for found in rounds]
        texts = answers.get(model, {})
        figures[model] = {
            "score": win_rate(rating), "lower": win_rate(float(np.percentile(drawn_ratings, 2.5))),
            "upper": win_rate(float(np.percentile(drawn_ratings, 97.5))),
            "style_controlled_score": win_rate(styled[model]),
            "battles": sum(b.model == model for b in battles),
            "avg_length": int(sum(map(len, texts.values())) / len(texts)) if texts else None}
    return figures


def battles_from_pairwise(rows: dict[str, list] | None, baseline: str,
                          recorded: dict[tuple[str, str], tuple[str | None, str | None]] | None = None,
                          ) -> tuple[list[Battle], dict[str, int]]:
    """Battles from B5P rows of models judged against the baseline with five-way verdicts (labels in pairs per judge
    and sample: first shown as A, then the baseline as A) and from the recorded games ((model, item) → game 1,
    game 2) of the questions not asked (or asked without a verdict; all of them without B5P rows); per model the
    games without a verdict."""
    recorded = dict(recorded or {})
    asked: dict[tuple[str, str], list[tuple[str | None, str | None]]] = {}
    rows = rows or {"first": [], "second": [], "id": [], "labels": []}
    for first, second, item, labels in zip(rows["first"], rows["second"], rows["id"], rows["labels"]):
        if second == baseline:
            asked[(first, str(item))] = [(labels[start + 1], labels[start]) for start in range(0, len(labels), 2)]
    battles, missing = [], {}
    for (model, item), games in sorted({**{key: [games] for key, games in recorded.items()}, **{
            key: games for key, games in asked.items()
            if key not in recorded or any(game != (None, None) for game in games)}}.items()):
        for game in games:
            battles += game_battles(model, item, game)
            missing[model] = missing.get(model, 0) + sum(label is None for label in game)
    return battles, missing
