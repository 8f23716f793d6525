"""CMMLU test questions as published (shared/data/real/cmmlu) and ten realistic ways a model answers them; shared by
the acceptance test and bench/bench_extraction.py."""
from __future__ import annotations

import csv
from collections.abc import Callable, Iterator
from pathlib import Path

LETTERS = "ABCD"


def cmmlu_questions(folder: Path) -> Iterator[tuple[str, dict[str, str], str]]:
    """(id, options A–D, gold letter) of every question in the CMMLU test CSVs."""
    for path in sorted(folder.glob("*.csv")):
        with open(path, encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle):
                yield f"{path.stem}-{row['']}", {letter: row[letter] for letter in LETTERS}, row["Answer"].strip()


def _other(gold: str) -> str:
    return LETTERS[(LETTERS.index(gold) + 1) % 4]


REPLY_STYLES: dict[str, Callable[[str, dict[str, str]], str]] = {  # style → reply naming `gold` among `options`
    "bare letter": lambda g, o: g,
    "答案：B": lambda g, o: f"答案：{g}",
    "(B)": lambda g, o: f"({g})",
    "B. text": lambda g, o: f"{g}. {o[g]}",
    "我选B，因为…": lambda g, o: f"我选{g}，因为{o[g]}最符合题意。",
    "option text": lambda g, o: o[g],
    "text + explanation": lambda g, o: f"{o[g]}。这是因为题干描述的情况与之相符。",
    "English": lambda g, o: f"The correct answer is {g}.",
    "<think> first": lambda g, o: f"<think>先看{_other(g)}：{o[_other(g)]}，不对。</think>\n答案是{g}",
    "Markdown bold": lambda g, o: f"**{g}. {o[g]}**",
}
