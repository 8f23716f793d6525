"""Between two runs of the same datasets and models: each paired difference's bootstrap interval beside the nightly's
test, and the items whose primary metric flipped — full marks (1) in one run and 0 in the other."""
from __future__ import annotations

from typing import Any

from ..core.intervals import bootstrap_mean_interval
from ..core.records import Columns

FLIPS_CAP = 500  # flipped items listed per dataset × model and direction; the counts are always whole
RIGHT_TO_WRONG, WRONG_TO_RIGHT = "right → wrong", "wrong → right"


def item_values(columns: Columns) -> dict[tuple[str, str, str], dict[str, float]]:
    """(dataset, model, metric) → item id → value, of the nightly's item-score columns; items without a value left
    out."""
    found: dict[tuple[str, str, str], dict[str, float]] = {}
    for dataset, model, metric, item, value in zip(*(columns.get(name, []) for name in
                                                     ("dataset", "model", "metric", "id", "value"))):
        if value is not None and value == value:
            found.setdefault((dataset, model, metric), {})[str(item)] = float(value)
    return found


def with_intervals(comparisons: list[dict[str, Any]], before: dict[tuple[str, str, str], dict[str, float]],
                   after: dict[tuple[str, str, str], dict[str, float]]) -> list[dict[str, Any]]:
    """Each comparison with the percentile bootstrap 95% interval of its change (B − A, mean over the items both
    runs scored) as `low` / `high`; None where nothing was paired."""
    shown = []
    for comparison in comparisons:
        key = (comparison["dataset"], comparison["model"], comparison["metric"])
        first, second = before.get(key, {}), after.get(key, {})
        changes = [second[item] - first[item] for item in sorted(first.keys() & second.keys())]
        low, high = bootstrap_mean_interval(changes) if changes and comparison["delta"] is not None else (None, None)
        shown.append({**comparison, "low": low, "high": high})
    return shown


def flipped_items(before: dict[tuple[str, str, str], dict[str, float]],
                  after: dict[tuple[str, str, str], dict[str, float]], primary: dict[str, str],
                  cap: int = FLIPS_CAP) -> tuple[list[dict[str, Any]], dict[tuple[str, str, str], int]]:
    """(the flipped items of each dataset's `primary` metric, model by model, at most `cap` per direction; the
    count of each (dataset, model, direction)) — an item flips when it has 1 in one run and 0 in the other."""
    flips, counts = [], {}
    for (dataset, model, metric), values in sorted(after.items()):
        if primary.get(dataset) != metric:
            continue
        earlier = before.get((dataset, model, metric), {})
        for direction, was, now in ((RIGHT_TO_WRONG, 1.0, 0.0), (WRONG_TO_RIGHT, 0.0, 1.0)):
            found = sorted((item for item, value in values.items() if value == now and earlier.get(item) == was),
                           key=_natural)
            counts[(dataset, model, direction)] = len(found)
            flips += [{"dataset": dataset, "model": model, "metric": metric, "id": item, "direction": direction}
                      for item in found[:cap]]
    return flips, counts


def _natural(item: str) -> tuple[int, int | str]:
    """Ids in their natural order: numbers by value, before any other text."""
    return (0, int(item)) if item.isdigit() else (1, item)
