"""An imported harness's figures as a table beside evalpipe's: a row per metric, the difference marked where both
are shares on one scale and they differ past the 4 digits shown."""
from __future__ import annotations

from typing import Any

SHOWN_DIGITS = 4  # figures are shown to 4 significant digits: a smaller difference is not one a reader can see
TOLERANCE = 5e-5


def harness_figure_rows(provenance: dict[str, Any], ours: dict[str, Any], headline: list[str]) -> list[dict[str, Any]]:
    """Per metric the harness reported, then per headline metric it did not: the harness's figure, evalpipe's figure
    of that name, and evalpipe − harness where both are numbers within [0, 1] (else None: another scale, or absent)."""
    reported = provenance.get("metrics", {})
    rows = []
    for name in [*reported, *(n for n in headline if n not in reported)]:
        theirs, mine = reported.get(name), ours.get(name)
        difference = (mine - theirs if _share(theirs) and _share(mine) else None)
        rows.append({"metric": name, "harness": _shown(theirs), "evalpipe": _shown(mine), "difference": difference,
                     "differs": difference is not None and abs(difference) > TOLERANCE})
    return rows


def _share(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 1


def _shown(value: Any) -> str:
    """A figure to 4 significant digits; a text figure ("inf", kept so by the importer) as it is; "–" when absent."""
    if value is None:
        return "–"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{value:.{SHOWN_DIGITS}g}"
    return str(value)
