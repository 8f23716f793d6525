"""AlpacaEval's files as its repository publishes them: results/<model>/model_outputs.json (instruction, output,
generator) for every model and the baseline, and results/<model>/<annotator>/annotations.json (instruction,
generator_1 = the baseline, generator_2 = the model, preference); read into one instruction dataset with the
annotator's verdicts."""
from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import Any

from ...core.names import safe_name
from ...harness.wild_files import UnreadableFile, load_wild_json, read_wild_bytes
from ..board_files import LeaderboardFiles
from .rules import SYSTEM, TEMPLATE

DEFAULT_BASELINE = "gpt4_1106_preview"
DIFFICULTY_FILE = "instruction_difficulty.csv"
PROMPT_FILE = "alpaca_eval_prompt.json"  # the annotator's system prompt and template, to ask [judge] what is missing
_CHAT_PART = re.compile(r"<\|im_start\|>(system|user)\n(.*?)<\|im_end\|>", re.S)  # AlpacaEval's per-instruction difficulty, when placed beside results/


def read_alpaca_eval(root: Path, baseline: str = DEFAULT_BASELINE) -> LeaderboardFiles:
    """The models under `root` (AlpacaEval's checkout or its results/ folder) against `baseline`: its outputs give the
    questions (id = position, AlpacaEval's index), every model's outputs are paired by instruction, and every
    annotations.json becomes verdicts of its annotator."""
    found = LeaderboardFiles()
    results = root / "results" if (root / "results").is_dir() else root
    base_file = results / baseline / "model_outputs.json"
    base = _records(base_file, found)
    if base is None:
        if not found.problems:
            found.problems.append(f"{base_file}: the baseline's outputs are not there (--baseline names another "
                                  "model folder)")
        return found
    ids = {}
    for position, record in enumerate(base):
        instruction = record.get("instruction")
        if not isinstance(instruction, str) or instruction in ids:
            found.problems.append(f"{base_file}: record {position} has no instruction, or one seen before")
            return found
        ids[instruction] = str(position)
        found.questions.append({"id": str(position), "instruction": instruction, "dataset": record.get("dataset")})
    _add_difficulty(root, found)
    for folder in sorted(p for p in results.iterdir() if (p / "model_outputs.json").is_file()):
        model = safe_name(folder.name)
        outputs = _records(folder / "model_outputs.json", found)
        if outputs is None:
            continue
        answers = _paired(outputs, ids, folder / "model_outputs.json", found)
        if answers is None:
            continue
        found.answers[model] = answers
        found.sources[model] = str(folder / "model_outputs.json")
        if folder.name != baseline:
            for annotations in sorted(folder.glob("*/annotations.json")):
                _add_verdicts(annotations, model, baseline, ids, found)
    if found.judge is not None:
        _add_published(root, found)
        found.board = {"name": "alpaca_eval", "baseline": safe_name(baseline), "judge": found.judge,
                       "verdicts": f"verdicts/{found.judge}.jsonl", "prompts": PROMPT_FILE}
        found.files[PROMPT_FILE] = json.dumps(annotator_template(root, found.judge), ensure_ascii=False,
                                              indent=1).encode() + b"\n"
    if len(found.answers) < 2 and not found.problems:
        found.problems.append(f"{results}: no model_outputs.json besides the baseline's")
    return found


def _records(path: Path, found: LeaderboardFiles) -> list[dict[str, Any]] | None:
    if not path.is_file():
        return None
    try:
        document = load_wild_json(read_wild_bytes(path), str(path))
    except (OSError, UnreadableFile) as exc:
        found.problems.append(f"{path}: cannot be read ({exc})")
        return None
    if not isinstance(document, list) or not all(isinstance(r, dict) for r in document):
        found.problems.append(f"{path}: not a JSON list of records")
        return None
    return document


def _paired(outputs: list[dict[str, Any]], ids: dict[str, str], path: Path,
            found: LeaderboardFiles) -> list[dict[str, Any]] | None:
    answers, seen = [], set()
    for position, record in enumerate(outputs):
        item = ids.get(record.get("instruction"))
        if item is None or item in seen or not isinstance(record.get("output"), str):
            found.problems.append(f"{path}: record {position} is not one of the baseline's instructions with an "
                                  "output (or repeats one)")
            return None
        seen.add(item)
        answers.append({"id": item, "output": record["output"]})
    return answers


def _add_verdicts(path: Path, model: str, baseline: str, ids: dict[str, str], found: LeaderboardFiles) -> None:
    annotations = _records(path, found)
    if annotations is None:
        return
    judge = safe_name(path.parent.name)
    if found.judge not in (None, judge):
        found.problems.append(f"{path}: annotator {judge!r}, but {found.judge!r} annotated the other models; import "
                              "one annotator's files")
        return
    found.judge = judge
    for position, record in enumerate(annotations):
        item = ids.get(record.get("instruction"))
        if item is None or record.get("generator_1") != baseline or safe_name(str(record.get("generator_2"))) != model:
            found.problems.append(f"{path}: record {position} is not {model} against {baseline} on one of the "
                                  "baseline's instructions")
            return
        found.verdicts.append({"id": item, "model": model, "preference": record.get("preference")})


PUBLISHED = ("length_controlled_winrate", "win_rate", "standard_error", "n_wins", "n_wins_base", "n_draws", "n_total",
             "discrete_win_rate", "avg_length")


def _add_published(root: Path, found: LeaderboardFiles) -> None:
    """The annotator's published leaderboard (<annotator>_leaderboard.csv anywhere under `root`, as AlpacaEval's
    repository keeps it): each imported model's row, to show beside evalpipe's figures."""
    path = next(iter(sorted(root.rglob(f"{found.judge}_leaderboard.csv"))), None)
    if path is None:
        return
    with open(path, newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            model = safe_name(row.get("") or row.get("name") or "")
            if model in found.answers:
                found.published[model] = {name: _number(row.get(name)) for name in PUBLISHED
                                          if _number(row.get(name)) is not None}


def _number(text: str | None) -> float | int | None:
    try:
        value = float(text) if text not in (None, "") else None
    except ValueError:
        return None
    return int(value) if value is not None and value.is_integer() and "." not in str(text) else value


def annotator_template(root: Path, annotator: str) -> dict[str, str]:
    """The annotator's own prompt when the checkout has it (evaluators_configs/<annotator>/*.txt, AlpacaEval's
    <|im_start|>system / user parts over {instruction}, {output_1}, {output_2}), else evalpipe's AlpacaEval-style
    one; either asks for m or M."""
    for path in sorted(root.rglob(f"evaluators_configs/{annotator}/*.txt")):
        parts = dict(_CHAT_PART.findall(path.read_text(encoding="utf-8")))
        if "user" in parts and all(name in parts["user"] for name in ("{instruction}", "{output_1}", "{output_2}")):
            return {"system": parts.get("system", "").strip(), "template": parts["user"].strip(), "source": str(path)}
    return {"system": SYSTEM, "template": TEMPLATE, "source": "evalpipe"}


def _add_difficulty(root: Path, found: LeaderboardFiles) -> None:
    """AlpacaEval's instruction_difficulty.csv (index, instruction_difficulty), when placed beside results/."""
    path = root / DIFFICULTY_FILE
    if not path.is_file():
        return
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    values = {}
    for row in rows[1:]:
        try:
            values[str(int(row[0]))] = float(row[1])
        except (IndexError, ValueError):
            found.problems.append(f"{path}: row {row!r} is not index, instruction_difficulty")
            return
    for question in found.questions:
        if question["id"] in values:
            question["instruction_difficulty"] = values[question["id"]]
