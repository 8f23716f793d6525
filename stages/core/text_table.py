"""Console text for reports, in the layout of seed 002 (fixed-width tables, percentages)."""
from __future__ import annotations

import unicodedata

CONSOLE_COLUMNS = 160  # what every console line keeps within

RULE = "=" * 80


def percent(value: float | None) -> str:
    """A fraction as a percentage with two decimals; 'n/a' when undefined."""
    return "n/a" if value is None else f"{100 * value:.2f}%"


def display_width(text: str) -> int:
    """Terminal columns taken by text (CJK characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int, left: bool) -> str:
    fill = " " * max(0, width - display_width(text))
    return text + fill if left else fill + text


def format_table(header: list[str], rows: list[list[str]]) -> str:
    """A fixed-width table: first column left-aligned, the others right-aligned, a rule under the header."""
    widths = [max(display_width(str(row[i])) for row in [header, *rows]) + 2 for i in range(len(header))]
    lines = ["".join(_pad(str(cell), widths[i], i == 0) for i, cell in enumerate(header))]
    lines.append("-" * sum(widths))
    lines.extend("".join(_pad(str(cell), widths[i], i == 0) for i, cell in enumerate(row)) for row in rows)
    return "\n".join(lines)
