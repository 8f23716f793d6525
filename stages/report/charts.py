"""Inline SVG charts for report.html: grouped bars, a heatmap and lines, drawn here so the page needs no library."""
from __future__ import annotations

import math
from html import escape

PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f",
           "#bab0ac")
WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 640, 260, 48, 12, 28, 62


def series_color(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


def _format(value: float, percent: bool) -> str:
    return f"{value * 100:.1f}%" if percent else f"{value:g}"


def _frame(title: str, body: list[str], width: int = WIDTH, height: int = HEIGHT) -> str:
    return (f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
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


def _legend(names: list[str]) -> list[str]:
    parts, x = [], LEFT
    for index, name in enumerate(names):
        parts.append(f'<rect x="{x}" y="{HEIGHT - 14}" width="10" height="10" fill="{series_color(index)}"/>'
                     f'<text class="legend" x="{x + 14}" y="{HEIGHT - 5}">{escape(name)}</text>')
        x += 24 + 7 * len(name)
    return parts


def _nice_top(values: list[float], percent: bool) -> float:
    """The axis top: 100% for rates that fit, else a round number above the largest value (counts in steps of 4)."""
    peak = max([*values, 0.0])
    if percent and peak <= 1:
        return 1.0
    if not percent and all(float(v).is_integer() for v in values):
        return float(max(4, math.ceil(peak / 4) * 4))
    return peak * 1.1 if peak > 0 else 1.0


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
            body.append(f'<rect class="bar" x="{x0 + s * bar_w:.1f}" y="{TOP + plot_h - h:.1f}" '
                        f'width="{max(bar_w - 1, 1):.1f}" height="{max(h, 0.5):.1f}" fill="{series_color(s)}">'
                        f'<title>{escape(f"{name} · {category}: {_format(value, percent)}")}</title></rect>')
        label = category if len(category) <= 18 else category[:17] + "…"
        body.append(f'<text class="tick" x="{x0 + group_w * 0.4:.1f}" y="{TOP + plot_h + 14}" '
                    f'text-anchor="middle">{escape(label)}</text>')
    return _frame(title, body + _legend(list(series)))


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
    return _frame(title, body + _legend(list(series)))


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
