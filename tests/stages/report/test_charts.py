"""Charts that stay readable at any size: upright grouped bars while they fit, sideways bars (a band per dataset,
every label whole or cut with its full name on hover) past that, and a rating's own axis rather than a percent one."""
import re

import pytest

from stages.report.charts import (
    BAND_BAR,
    CHAR_WIDTH,
    MIN_BAR,
    bar_chart,
    fits_upright,
    grouped_bar_chart,
    sideways_bar_chart,
)

DEMO = ["fact_check", "mc_mixed", "numeric_finance", "peppa_dialogue", "qa_mixed", "story_annotation"]
FIFTY = [f"dataset_with_a_long_name_{i:02d}" for i in range(50)]
MODELS = ["model_a", "model_b", "qwen2.5-72b-instruct", "llama-3.1-8b", "deepseek-r1-distill"]


def _bars(svg: str) -> list[dict[str, float]]:
    return [{name: float(value) for name, value in re.findall(r'(x|y|width|height)="([\d.]+)"', rect)}
            for rect in re.findall(r'<rect class="bar"[^>]*>', svg)]


def _category_labels(svg: str) -> list[tuple[float, float, str]]:
    """(x, y, text) of each tick label that names a category (not an axis value)."""
    found = re.findall(r'<text class="tick" x="([\d.]+)" y="([\d.]+)"[^>]*>(?:<title>[^<]*</title>)?([^<]*)</text>', svg)
    return [(float(x), float(y), text) for x, y, text in found if not re.fullmatch(r"[\d.]+%?", text)]


def test_the_demo_keeps_upright_bars():
    assert fits_upright(DEMO, 2)
    assert grouped_bar_chart("t", DEMO, {"a": [0.5] * 6, "b": [0.4] * 6}) == \
        bar_chart("t", DEMO, {"a": [0.5] * 6, "b": [0.4] * 6}, y_max=None)


def test_fifty_datasets_by_five_models_turn_sideways_without_slivers_or_overlaps():
    assert not fits_upright(FIFTY, 5)
    series = {m: [(i * 7 + j * 13) % 100 / 100 for i in range(50)] for j, m in enumerate(MODELS)}
    svg = grouped_bar_chart("Primary metric per dataset", FIFTY, series, y_max=1.0)
    assert svg.startswith('<div class="chart-scroll">')
    bars = _bars(svg)
    assert len(bars) == 250 and min(bar["height"] for bar in bars) >= MIN_BAR
    assert min(bar["height"] for bar in bars) == BAND_BAR - 1
    labels = _category_labels(svg)
    assert [text for _, _, text in labels] == FIFTY  # 28 characters fit the label column whole
    ys = [y for _, y, _ in labels]
    assert all(b - a >= 5 * BAND_BAR for a, b in zip(ys, ys[1:]))  # one band per dataset, none overlapping
    for bar in bars:  # every bar inside its dataset's band
        band = min(range(50), key=lambda i: abs(ys[i] - (bar["y"] + bar["height"] / 2)))
        assert abs(ys[band] - bar["y"]) <= 5 * BAND_BAR
    assert "<title>qwen2.5-72b-instruct · dataset_with_a_long_name_07: 75.0%</title>" in svg
    assert max(bar["width"] for bar in bars) / min(bar["width"] for bar in bars if bar["width"] > 1) == \
        pytest.approx(99 / 1, rel=0.01)  # widths in proportion to the values: 0.99 against 0.01


def test_a_long_label_is_cut_to_its_column_and_whole_on_hover():
    name = "story_annotation_long_variant_name_05"
    svg = sideways_bar_chart("t", [name], {"a": [0.5]})
    (x, _, text), = _category_labels(svg)
    assert text.endswith("…") and len(text) * CHAR_WIDTH <= x and name.startswith(text[:-1])
    assert f"<title>{name}</title>" in svg


def test_a_rating_axis_is_not_a_percent_axis():
    svg = grouped_bar_chart("Ratings", ["mt_bench"], {"a": [7.5], "b": [6.25]}, percent=False, y_max=10.0)
    ticks = re.findall(r'<text class="tick"[^>]*>([\d.%]+)</text>', svg)
    assert ticks == ["0", "2.5", "5", "7.5", "10"] and "%" not in "".join(ticks)
    (first, second) = _bars(svg)
    assert first["height"] / second["height"] == pytest.approx(7.5 / 6.25, rel=1e-3)


def test_a_legend_of_long_model_names_wraps_inside_the_chart():
    names = [f"a-very-long-model-name-number-{i}" for i in range(5)]
    svg = bar_chart("t", ["a", "b"], {name: [0.5, 0.4] for name in names})
    width, height = map(float, re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg).groups())
    entries = [(float(x), float(y), text) for x, y, text in
               re.findall(r'<text class="legend" x="([\d.]+)" y="([\d.]+)">([^<]*)</text>', svg)]
    assert [text for _, _, text in entries] == names
    assert all(x + CHAR_WIDTH * len(text) <= width and y <= height for x, y, text in entries)
    assert len({y for _, y, _ in entries}) == 3  # two names a row
