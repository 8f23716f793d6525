"""MT-Bench's files as FastChat publishes them (fastchat/llm_judge/data/mt_bench): question.jsonl (question_id,
category, turns), model_answer/<model>.jsonl (choices[0].turns), reference_answer/gpt-4.jsonl (the references of
math, reasoning and coding questions) and judge_prompts.jsonl (in the folder or the one above it); read into one
multi-turn instruction dataset with FastChat's judge prompts beside it."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ...core.names import safe_name
from ..board_files import LeaderboardFiles, read_json_lines
from .rules import prompt_names_missing

PROMPTS_FILE = "judge_prompts.jsonl"
REFERENCE_MODEL = "gpt-4"  # FastChat's reference answers


def read_mt_bench(root: Path, baseline: str | None = None) -> LeaderboardFiles:
    """Every model under `root`/model_answer on `root`/question.jsonl, with the references and FastChat's judge
    prompts; `baseline` is not used (MT-Bench rates each answer on its own)."""
    found = LeaderboardFiles()
    questions = read_json_lines(root / "question.jsonl", found)
    if questions is None:
        found.problems.append(f"{root / 'question.jsonl'}: not there (give FastChat's data/mt_bench folder)")
        return found
    references = {str(r.get("question_id")): _turns(r) for r in read_json_lines(
        root / "reference_answer" / f"{REFERENCE_MODEL}.jsonl", found) or []}
    for record in questions:
        turns = record.get("turns")
        if record.get("question_id") is None or not isinstance(turns, list) or not turns or not all(
                isinstance(t, str) and t.strip() for t in turns):
            found.problems.append(f"{root / 'question.jsonl'}: question {record.get('question_id')!r} has no turns")
            return found
        item = str(record["question_id"])
        row = {"id": item, "instruction": turns[0], "turns": turns, "category": record.get("category")}
        if references.get(item):
            row["references"] = references[item]
        found.questions.append(row)
    ids = {row["id"] for row in found.questions}
    for path in sorted((root / "model_answer").glob("*.jsonl")):
        rows = read_json_lines(path, found)
        answers = []
        for record in rows or []:
            item, turns = str(record.get("question_id")), _turns(record)
            if item in ids and turns:
                answers.append({"id": item, "output": turns[-1], "turns": turns})
        if answers:
            found.answers[safe_name(path.stem)] = answers
            found.sources[safe_name(path.stem)] = str(path)
    if not found.answers:
        found.problems.append(f"{root / 'model_answer'}: no model's answers (<model>.jsonl with choices[0].turns)")
    _add_judgments(root, ids, found)
    prompts_path = next((p for p in (root / PROMPTS_FILE, root.parent / PROMPTS_FILE) if p.is_file()), None)
    if prompts_path is None:
        found.problems.append(f"{root}: FastChat's {PROMPTS_FILE} is neither in it nor beside it")
    else:
        prompts = {r.get("name"): r for r in read_json_lines(prompts_path, found) or []}
        missing = prompt_names_missing(prompts)
        if missing:
            found.problems.append(f"{prompts_path}: lacks FastChat's prompts {', '.join(missing)}")
        found.files[PROMPTS_FILE] = prompts_path.read_bytes()
        found.board = {"name": "mt_bench", "prompts": PROMPTS_FILE}
        if found.verdicts:
            found.board.update({"judge": found.judge, "verdicts": f"verdicts/{found.judge}_single.jsonl"})
        found.judge_table = {"url": "", "model": found.judge or REFERENCE_MODEL, "temperature": 0}
    return found


def _add_judgments(root: Path, ids: set[str], found: LeaderboardFiles) -> None:
    """FastChat's single-answer judgments (model_judgment/<judge>_single.jsonl: question_id, model, judge = [judge
    model, prompt name], turn, score, −1 for none) of the imported models, as recorded verdicts; pairwise judgment
    files are read past with a note."""
    for path in sorted((root / "model_judgment").glob("*_pair.jsonl")):
        found.notes.append(f"{path}: MT-Bench's pairwise judgments are not read (its pairwise mode is not built in)")
    for path in sorted((root / "model_judgment").glob("*_single.jsonl")):
        for record in read_json_lines(path, found) or []:
            judge = record.get("judge")
            model = safe_name(str(record.get("model")))
            if model not in found.answers or str(record.get("question_id")) not in ids:
                continue
            if not isinstance(judge, list) or not judge or found.judge not in (None, safe_name(str(judge[0]))):
                found.problems.append(f"{path}: judgments of several judges; import one judge's file")
                return
            found.judge = safe_name(str(judge[0]))
            found.verdicts.append({"id": str(record["question_id"]), "model": model, "turn": record.get("turn"),
                                   "score": record.get("score")})


def _turns(record: dict[str, Any]) -> list[str] | None:
    """choices[0].turns of an answer record, when they are texts."""
    try:
        turns = record["choices"][0]["turns"]
    except (KeyError, IndexError, TypeError):
        return None
    return turns if isinstance(turns, list) and turns and all(isinstance(t, str) for t in turns) else None
