"""dataset.toml [leaderboard]: which published leaderboard's rules score the dataset, and what those rules need from
the dataset folder — AlpacaEval 2: the baseline model and the verdicts its annotator recorded; MT-Bench: FastChat's
judge prompts, AlignBench: its judge template and dimension tables (the ratings are asked of [judge])."""
from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..core.errors import UsageError
from ..core.names import check_name
from ..io.dataset_files import VERDICTS_MAX_BYTES, dataset_file
from .board import LEADERBOARDS

KEYS = ("name", "baseline", "judge", "verdicts", "prompts")


@dataclass(frozen=True)
class LeaderboardConfig:
    """A validated [leaderboard] table; `verdicts` and `prompts` are relative to the dataset folder."""

    name: str
    baseline: str | None = None
    judge: str | None = None
    verdicts: str | None = None
    prompts: str | None = None

    def described(self) -> dict[str, Any]:
        return asdict(self)


def read_leaderboard_config(table: dict[str, Any], origin: str) -> LeaderboardConfig | None:
    """dataset.toml's [leaderboard] checked (None when there is none); every problem is one line (exit 2)."""
    if not table:
        return None
    unknown = sorted(set(table) - set(KEYS))
    if unknown:
        raise UsageError(f"{origin}: unknown [leaderboard] key(s) {', '.join(unknown)} (allowed: {', '.join(KEYS)})")
    names = LEADERBOARDS.names()
    if table.get("name") not in names:
        raise UsageError(f"{origin}: [leaderboard] name {table.get('name')!r} is not one evalpipe reproduces "
                         f"({', '.join(names)})")
    board = LEADERBOARDS.get(table["name"])
    wrong = [key for key in KEYS if key in table and (not isinstance(table[key], str) or not table[key])]
    missing = [key for key in board.required if key not in table]
    if wrong or missing:
        raise UsageError(f"{origin}: [leaderboard] {table['name']} needs {', '.join(board.required)} as text"
                         f" ({', '.join(wrong + missing)} {'is' if len(wrong + missing) == 1 else 'are'} not)")
    board.check_table(table, origin)
    if "baseline" in table:
        check_name(table["baseline"], "[leaderboard] baseline", origin)
    return LeaderboardConfig(**{key: table[key] for key in KEYS if key in table})


def read_dataset_leaderboard(table: dict[str, Any], kind: Any, folder: Path,
                             models: list[str]) -> LeaderboardConfig | None:
    """The dataset's [leaderboard] checked against its folder (None when it has none)."""
    leaderboard = read_leaderboard_config(table, str(folder / "dataset.toml"))
    if leaderboard is not None:
        check_leaderboard(leaderboard, kind, folder, models)
    return leaderboard


def check_leaderboard(leaderboard: LeaderboardConfig, kind: Any, folder: Path, models: list[str]) -> None:
    """[leaderboard] scores open-ended instructions, its baseline (when it has one) is one of the dataset's models, and
    its recorded verdicts and judge prompts are files inside the dataset folder."""
    origin = str(folder / "dataset.toml")
    if not kind.open_ended:
        raise UsageError(f"{origin}: [leaderboard] scores open-ended instructions (kind = \"instruction\"), not "
                         f"kind {kind.name!r}")
    if leaderboard.baseline is not None and leaderboard.baseline not in models:
        raise UsageError(f"{origin}: [leaderboard] baseline {leaderboard.baseline!r} is not one of the dataset's "
                         f"models ({', '.join(sorted(models)) or 'none'})")
    for key in ("verdicts", "prompts"):
        if getattr(leaderboard, key) is not None:
            dataset_file(folder, getattr(leaderboard, key), f"[leaderboard] {key}", origin, VERDICTS_MAX_BYTES)


def leaderboard_spec(leaderboard: LeaderboardConfig | None, dataset: str) -> dict[str, Any] | None:
    """The dataset spec's entry of [leaderboard]: its table, with its files named under the inputs root."""
    if leaderboard is None:
        return None
    return {**leaderboard.described(), **{key: f"{dataset}/{value}" for key in ("verdicts", "prompts")
                                          if (value := getattr(leaderboard, key)) is not None}}
