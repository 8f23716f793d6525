"""dataset.toml [leaderboard]: which published leaderboard's rules score the dataset, its baseline model, and the
verdicts its judge recorded (a file in the dataset folder, as `evalpipe import` writes it)."""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from ..core.errors import UsageError
from ..core.names import check_name

LEADERBOARDS = ("alpaca_eval",)  # AlpacaEval 2: every model against the baseline, preferences in [1, 2]
KEYS = ("name", "baseline", "judge", "verdicts")


@dataclass(frozen=True)
class LeaderboardConfig:
    """A validated [leaderboard] table; `verdicts` is relative to the dataset folder."""

    name: str
    baseline: str
    judge: str
    verdicts: str

    def described(self) -> dict[str, Any]:
        return asdict(self)


def read_leaderboard_config(table: dict[str, Any], origin: str) -> LeaderboardConfig | None:
    """dataset.toml's [leaderboard] checked (None when there is none); every problem is one line (exit 2)."""
    if not table:
        return None
    unknown = sorted(set(table) - set(KEYS))
    if unknown:
        raise UsageError(f"{origin}: unknown [leaderboard] key(s) {', '.join(unknown)} (allowed: {', '.join(KEYS)})")
    missing = [key for key in KEYS if not isinstance(table.get(key), str) or not table[key]]
    if missing:
        raise UsageError(f"{origin}: [leaderboard] needs {', '.join(missing)} (text): name = "
                         f"{' | '.join(repr(n) for n in LEADERBOARDS)}, the baseline model, the judge whose verdicts "
                         "were recorded, and the verdicts file in the dataset folder")
    if table["name"] not in LEADERBOARDS:
        raise UsageError(f"{origin}: [leaderboard] name {table['name']!r} is not one evalpipe reproduces "
                         f"({', '.join(LEADERBOARDS)})")
    check_name(table["baseline"], "[leaderboard] baseline", origin)
    return LeaderboardConfig(**{key: table[key] for key in KEYS})
