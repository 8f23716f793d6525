"""AlignBench's files as its repository keeps them: data/data_v1.1_release.jsonl (question_id, category, subcategory,
question, reference), data/model_answer/<model>.jsonl (answer), data/judgment/<model>.jsonl (rating, score) and
config/ (dimension_set.json, subcategory_question_mapping.json, dimension_definition.json); read into one Chinese
instruction dataset with the judge's dimensions and the recorded judgments beside it."""
from __future__ import annotations

import json
from pathlib import Path

from ...core.names import safe_name
from ..board_files import LeaderboardFiles, read_json_lines
from .rules import TEMPLATE

RECORDED_JUDGE = "gpt-4"  # AlignBench's judge.py asks gpt-4; its judgment files do not name the judge
CONFIG_FILE = "alignbench.json"  # written beside the dataset: the judge template and AlignBench's dimension tables
CONFIG_SOURCES = {"dimension_set": "dimension_set.json", "dimension_definition": "dimension_definition.json",
                  "subcategory_mapping": "subcategory_question_mapping.json"}


def read_alignbench(root: Path, baseline: str | None = None) -> LeaderboardFiles:
    """The questions of `root`/data (the newest data_*release.jsonl), every model under data/model_answer, and the
    dimension tables of `root`/config; `baseline` is not used (each answer is rated on its own)."""
    found = LeaderboardFiles()
    releases = sorted((root / "data").glob("data*release.jsonl"))
    if not releases:
        found.problems.append(f"{root / 'data'}: no data_*release.jsonl (give AlignBench's checkout)")
        return found
    for record in read_json_lines(releases[-1], found) or []:
        if record.get("question_id") is None or not isinstance(record.get("question"), str) or not isinstance(
                record.get("reference"), str):
            found.problems.append(f"{releases[-1]}: question {record.get('question_id')!r} has no question or reference")
            return found
        found.questions.append({"id": str(record["question_id"]), "instruction": record["question"],
                                "answer": record["reference"], "category": record.get("category"),
                                "subcategory": record.get("subcategory")})
    ids = {row["id"] for row in found.questions}
    for path in sorted((root / "data" / "model_answer").glob("*.jsonl")):
        answers = [{"id": str(r.get("question_id")), "output": r["answer"]} for r in read_json_lines(path, found) or []
                   if str(r.get("question_id")) in ids and isinstance(r.get("answer"), str)]
        if answers:
            found.answers[safe_name(path.stem)] = answers
            found.sources[safe_name(path.stem)] = str(path)
    tables = {"template": TEMPLATE}
    for key, name in CONFIG_SOURCES.items():
        path = root / "config" / name
        try:
            tables[key] = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            found.problems.append(f"{path}: cannot be read ({exc})")
            return found
    unmapped = sorted({row["subcategory"] for row in found.questions} - set(tables["subcategory_mapping"]))
    if unmapped:
        found.problems.append(f"{root / 'config'}: subcategories without an answer type: {', '.join(unmapped[:5])}")
    found.files[CONFIG_FILE] = json.dumps(tables, ensure_ascii=False, indent=1).encode() + b"\n"
    found.board = {"name": "alignbench", "prompts": CONFIG_FILE}
    for path in sorted((root / "data" / "judgment").glob("*.jsonl")):
        for record in read_json_lines(path, found) or []:
            model = safe_name(str(record.get("model_id") or path.stem))
            if model in found.answers and str(record.get("question_id")) in ids:
                found.verdicts.append({"id": str(record["question_id"]), "model": model, "score": record.get("score"),
                                       "rating": record.get("rating")})
    found.judge_table = {"url": "", "model": RECORDED_JUDGE, "temperature": 0}
    if found.verdicts:
        found.judge = RECORDED_JUDGE
        found.board.update({"judge": RECORDED_JUDGE, "verdicts": f"verdicts/{RECORDED_JUDGE}.jsonl"})
    return found
