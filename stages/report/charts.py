"""Inline SVG charts for report.html: grouped bars, a heatmap and lines, drawn here so the page needs no library."""
from __future__ import annotations

import math
from html import escape

PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f",
           "#bab0ac")
WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 640, 260, 48, 12, 28, 62
CHAR_WIDTH, WIDE_CHAR_WIDTH = 6.5, 11.0  # px a tick label's character takes at 11px: Latin (a little over the
# 6.1 Chromium measures on average), and a full-width (CJK) one
UPRIGHT_LABEL = 18 * CHAR_WIDTH  # px an upright chart's category label is cut to
MIN_BAR = 6  # px: a bar thinner than this is a sliver, so the chart turns its bars sideways
BAND_BAR, BAND_GAP, LABEL_COLUMN, SCROLL_HEIGHT = 8, 10, 200, 560


def series_color(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


def _format(value: float, percent: bool) -> str:
    return f"{value * 100:.1f}%" if percent else f"{value:g}"


def _frame(title: str, body: list[str], width: int = WIDTH, height: int = HEIGHT, bars: str = "") -> str:
    """The chart's <svg>; `bars` ("upright" or "sideways") says which way its bars run."""
    drawn = f' data-bars="{bars}"' if bars else ""
    return (f'<svg class="chart"{drawn} xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
            f'width="{width}" height="{height}" role="img" aria-label="{escape(title)}">'
            f'<text class="chart-title" x="{width / 2}" y="16" text-anchor="middle">{escape(title)}</text>'
            + "".join(body) + "</svg>")


def _axis(y_max: float, percent: bool, y_min: float = 0.0) -> list[str]:
    plot_h = HEIGHT - TOP - BOTTOM
    parts = []
    for step in range(5):
        value = y_min + (y_max - y_min) * step / 4
        y = TOP + plot_h - plot_h * step / 4
        parts.append(f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}"/>'
                     f'<text class="tick" x="{LEFT - 4}" y="{y + 4:.1f}" text-anchor="end">'
                     f'{escape(_format(value, percent))}</text>')
    return parts


def _legend(names: list[str]) -> tuple[list[str], int]:
    """The legend under a chart, in as many rows as its names need, and the chart's height with them."""
    rows = _legend_rows(names)
    parts = [part for row, found in enumerate(rows)
             for part in _legend_row(found, HEIGHT - 14 + 16 * row, sum(map(len, rows[:row])))]
    return parts, HEIGHT + 16 * (len(rows) - 1)


def _legend_row(names: list[str], y: float, first: int = 0) -> list[str]:
    parts, x = [], LEFT
    for index, name in enumerate(names, start=first):
        parts.append(f'<rect x="{x}" y="{y}" width="10" height="10" fill="{series_color(index)}"/>'
                     f'<text class="legend" x="{x + 14}" y="{y + 9}">{escape(name)}</text>')
        x += 24 + 7 * len(name)
    return parts


def _legend_rows(names: list[str]) -> list[list[str]]:
    """The legend's names split into rows that fit the chart's width."""
    rows: list[list[str]] = [[]]
    x = LEFT
    for name in names:
        step = 24 + 7 * len(name)
        if rows[-1] and x + step > WIDTH - RIGHT:
            rows.append([])
            x = LEFT
        rows[-1].append(name)
        x += step
    return rows


def _nice_top(values: list[float], percent: bool) -> float:
    """The axis top: 100% for rates that fit, else a round number above the largest value (counts in steps of 4)."""
    peak = max([*values, 0.0])
    if percent and peak <= 1:
        return 1.0
    if not percent and all(float(v).is_integer() for v in values):
        return float(max(4, math.ceil(peak / 4) * 4))
    return peak * 1.1 if peak > 0 else 1.0


def _bar(x: float, y: float, width: float, height: float, series: int, title: str) -> str:
    """One bar in its series' colour, its value on hover."""
    return (f'<rect class="bar" x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" height="{height:.1f}" '
            f'fill="{series_color(series)}"><title>{escape(title)}</title></rect>')


def bar_chart(title: str, categories: list[str], series: dict[str, list[float | None]], percent: bool = True,
              y_max: float | None = None) -> str:
    """Grouped bars: one group per category, one bar per series (a model); missing values leave a gap."""
    values = [v for vs in series.values() for v in vs if v is not None]
    top = y_max if y_max is not None else _nice_top(values, percent)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    group_w = plot_w / max(len(categories), 1)
    bar_w = group_w * 0.8 / max(len(series), 1)
    body = _axis(top, percent)
    for c, category in enumerate(categories):
        x0 = LEFT + c * group_w + group_w * 0.1
        for s, (name, vs) in enumerate(series.items()):
            value = vs[c]
            if value is None:
                continue
            h = plot_h * min(value / top, 1.0) if top else 0
            body.append(_bar(x0 + s * bar_w, TOP + plot_h - h, max(bar_w - 1, 1), max(h, 0.5), s,
                             f"{name} · {category}: {_format(value, percent)}"))
        label = _fit(category, UPRIGHT_LABEL)
        body.append(f'<text class="tick" x="{x0 + group_w * 0.4:.1f}" y="{TOP + plot_h + 14}" '
                    f'text-anchor="middle">{escape(label)}</text>')
    legend, height = _legend(list(series))
    return _frame(title, body + legend, WIDTH, height, bars="upright")


def _label_width(text: str) -> float:
    from unicodedata import east_asian_width

    return sum(WIDE_CHAR_WIDTH if east_asian_width(c) in "WF" else CHAR_WIDTH for c in text)


def _fit(text: str, width: float) -> str:
    """The text, or as much of it as fits `width` px with an ellipsis after it."""
    if _label_width(text) <= width:
        return text
    while text and _label_width(text + "…") > width:
        text = text[:-1]
    return text + "…"


def fits_upright(categories: list[str], series_count: int) -> bool:
    """Whether grouped upright bars stay readable: every bar at least MIN_BAR wide and no two neighbouring labels
    (cut to UPRIGHT_LABEL px) overlapping under their groups."""
    group_w = (WIDTH - LEFT - RIGHT) / max(len(categories), 1)
    if group_w * 0.8 / max(series_count, 1) < MIN_BAR:
        return False
    widths = [_label_width(_fit(c, UPRIGHT_LABEL)) for c in categories]
    return all((a + b) / 2 <= group_w for a, b in zip(widths, widths[1:]))


def sideways_bar_chart(title: str, categories: list[str], series: dict[str, list[float | None]], percent: bool = True,
                       x_max: float | None = None) -> str:
    """Grouped bars drawn sideways: a band per category with its full label (cut to fit, whole on hover) and one
    BAND_BAR-thick bar per series; as tall as the categories need, scrolled past SCROLL_HEIGHT."""
    values = [v for vs in series.values() for v in vs if v is not None]
    top = x_max if x_max is not None else _nice_top(values, percent)
    band = BAND_BAR * max(len(series), 1) + BAND_GAP
    legend_rows = _legend_rows(list(series))
    plot_top = 44 + 16 * len(legend_rows)
    height = plot_top + band * len(categories) + 24
    plot_w = WIDTH - LABEL_COLUMN - RIGHT - 8
    body = [part for row, names in enumerate(legend_rows)
            for part in _legend_row(names, 26 + 16 * row, sum(map(len, legend_rows[:row])))]
    for step in range(5):
        x = LABEL_COLUMN + plot_w * step / 4
        tick = escape(_format(top * step / 4, percent))
        body.append(f'<line class="grid" x1="{x:.1f}" x2="{x:.1f}" y1="{plot_top}" y2="{height - 20}"/>'
                    f'<text class="tick" x="{x:.1f}" y="{plot_top - 4}" text-anchor="middle">{tick}</text>'
                    f'<text class="tick" x="{x:.1f}" y="{height - 6}" text-anchor="middle">{tick}</text>')
    for c, category in enumerate(categories):
        y0 = plot_top + c * band + BAND_GAP / 2
        body.append(f'<text class="tick" x="{LABEL_COLUMN - 6}" y="{y0 + band / 2:.1f}" text-anchor="end">'
                    f'<title>{escape(category)}</title>{escape(_fit(category, LABEL_COLUMN - 10))}</text>')
        for s, (name, vs) in enumerate(series.items()):
            value = vs[c]
            if value is None:
                continue
            w = plot_w * min(value / top, 1.0) if top else 0
            body.append(_bar(LABEL_COLUMN, y0 + s * BAND_BAR, max(w, 0.5), BAND_BAR - 1, s,
                             f"{name} · {category}: {_format(value, percent)}"))
    chart = _frame(title, body, WIDTH, height, bars="sideways")
    return f'<div class="chart-scroll">{chart}</div>' if height > SCROLL_HEIGHT else chart


def grouped_bar_chart(title: str, categories: list[str], series: dict[str, list[float | None]], percent: bool = True,
                      y_max: float | None = None) -> str:
    """bar_chart while its bars and labels fit upright (fits_upright), else sideways_bar_chart."""
    if fits_upright(categories, len(series)):
        return bar_chart(title, categories, series, percent, y_max)
    return sideways_bar_chart(title, categories, series, percent, y_max)


def line_chart(title: str, x_labels: list[str], series: dict[str, list[float | None]], percent: bool = True) -> str:
    """One line per series across x_labels (nights); a missing night breaks the line. The axis starts a little
    below the lowest value, so a few points of change are visible."""
    values = [v for vs in series.values() for v in vs if v is not None]
    top = _nice_top(values, percent)
    bottom = max(0.0, math.floor((min(values, default=0.0) - 0.05 * top) / (0.1 * top)) * 0.1 * top)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = plot_w / max(len(x_labels) - 1, 1)
    body = _axis(top, percent, y_min=bottom)
    every = math.ceil(len(x_labels) / 10)
    for i, label in enumerate(x_labels):
        if (len(x_labels) - 1 - i) % every:
            continue
        anchor = "end" if i == len(x_labels) - 1 and i else "middle"
        body.append(f'<text class="tick" x="{LEFT + i * step:.1f}" y="{TOP + plot_h + 14}" '
                    f'text-anchor="{anchor}">{escape(label)}</text>')
    for s, (name, vs) in enumerate(series.items()):
        points = [(LEFT + i * step, TOP + plot_h - plot_h * (v - bottom) / (top - bottom), v)
                  for i, v in enumerate(vs) if v is not None]
        if len(points) > 1:
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y, _ in points)
            body.append(f'<polyline class="line" points="{path}" fill="none" stroke="{series_color(s)}" '
                        f'stroke-width="2"/>')
        for (x, y, v), label in zip(points, [x_labels[i] for i, v in enumerate(vs) if v is not None]):
            body.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{series_color(s)}">'
                        f'<title>{escape(f"{name} · {label}: {_format(v, percent)}")}</title></circle>')
    legend, height = _legend(list(series))
    return _frame(title, body + legend, WIDTH, height)


def heatmap(title: str, row_labels: list[str], col_labels: list[str], counts: list[list[int]],
            row_axis: str, col_axis: str) -> str:
    """A count matrix as shaded cells with the count written in each."""
    cell, left, top = 56, 96, 48
    width, height = left + cell * len(col_labels) + 16, top + cell * len(row_labels) + 32
    peak = max([c for row in counts for c in row] + [1])
    body = [f'<text class="axis" x="{left + cell * len(col_labels) / 2}" y="{top - 22}" '
            f'text-anchor="middle">{escape(col_axis)}</text>',
            f'<text class="axis" x="12" y="{top + cell * len(row_labels) / 2}" '
            f'transform="rotate(-90 12 {top + cell * len(row_labels) / 2})" text-anchor="middle">'
            f'{escape(row_axis)}</text>']
    for j, label in enumerate(col_labels):
        body.append(f'<text class="tick" x="{left + j * cell + cell / 2}" y="{top - 6}" '
                    f'text-anchor="middle">{escape(label)}</text>')
    for i, label in enumerate(row_labels):
        body.append(f'<text class="tick" x="{left - 6}" y="{top + i * cell + cell / 2 + 4}" '
                    f'text-anchor="end">{escape(label)}</text>')
        for j, count in enumerate(counts[i]):
            shade = count / peak
            fill = f"rgba(78,121,167,{0.08 + 0.92 * shade:.3f})"
            ink = "#fff" if shade > 0.55 else "#222"
            body.append(f'<rect class="cell" x="{left + j * cell}" y="{top + i * cell}" width="{cell - 2}" '
                        f'height="{cell - 2}" fill="{fill}"><title>{escape(f"{label} → {col_labels[j]}: {count}")}'
                        f'</title></rect><text x="{left + j * cell + cell / 2 - 1}" y="{top + i * cell + cell / 2 + 4}" '
                        f'text-anchor="middle" fill="{ink}">{count}</text>')
    return _frame(title, body, width, height)
