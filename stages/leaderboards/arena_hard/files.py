"""Arena-Hard-Auto's files as its repository keeps them: data/<bench>/question.jsonl (question_id, turns[0].content),
data/<bench>/model_answer/<model>.jsonl (choices[0].turns[0].content), data/<bench>/model_judgment/<judge>/<model>.jsonl (the
published judgments), config/judge_config.yaml (judge model, system prompt, prompt template, baseline) and
leaderboard/*.csv (the published scores); read into one instruction dataset whose [judge] asks Arena-Hard's way what
the judgments lack once a url is added."""
from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from ...core.names import safe_name
from ..board_files import LeaderboardFiles, read_json_lines

DEFAULT_BASELINE = "gpt-4-0314"
BENCH = "arena-hard-v0.1"
TEMPLATE_NAMES = {"{question_1}": "{question}", "{answer_1}": "{answer_a}", "{answer_2}": "{answer_b}"}


def read_arena_hard(root: Path, baseline: str = DEFAULT_BASELINE) -> LeaderboardFiles:
    """The models answering `root`'s questions (the checkout, its data/ folder or the bench folder itself), the
    judge's settings from its judge_config*.yaml, and the published leaderboard's rows for them."""
    found = LeaderboardFiles()
    bench = next((folder for folder in (root, root / BENCH, root / "data" / BENCH)
                  if (folder / "question.jsonl").is_file()), None)
    if bench is None:
        found.problems.append(f"{root}: no question.jsonl (in it, {BENCH}/ or data/{BENCH}/)")
        return found
    for record in read_json_lines(bench / "question.jsonl", found) or []:
        text = _first_turn(record.get("turns"))
        if record.get("question_id") is None or text is None:
            found.problems.append(f"{bench / 'question.jsonl'}: question {record.get('question_id')!r} has no turn")
            return found
        found.questions.append({"id": str(record["question_id"]), "instruction": text,
                                "category": record.get("cluster") or record.get("category")})
    ids = {row["id"] for row in found.questions}
    for path in sorted((bench / "model_answer").glob("*.jsonl")):
        answers = []
        for record in read_json_lines(path, found) or []:
            item = str(record.get("question_id"))
            try:
                text = _first_turn(record["choices"][0]["turns"])
            except (KeyError, IndexError, TypeError):
                text = None
            if item in ids and text is not None:
                answers.append({"id": item, "output": text})
        if answers:
            found.answers[safe_name(path.stem)] = answers
            found.sources[safe_name(path.stem)] = str(path)
    if safe_name(baseline) not in found.answers:
        found.problems.append(f"{bench / 'model_answer'}: the baseline {baseline}'s answers are not there (--baseline "
                              "names another model)")
    config = _judge_config(root, bench, found)
    if config is not None:
        template = config.get("prompt_template")
        template = template[0] if isinstance(template, list) and template else template
        if not isinstance(template, str) or not all(name in template for name in TEMPLATE_NAMES):
            found.problems.append("Arena-Hard's judge_config has no prompt_template with {question_1}, {answer_1} and "
                                  "{answer_2}")
            return found
        for theirs, ours in TEMPLATE_NAMES.items():
            template = template.replace(theirs, ours)
        found.judge_table = {"url": "", "model": str(config.get("judge_model")),
                             "system_prompt": config.get("system_prompt"),
                             "temperature": config.get("temperature", 0), "pairwise": True,
                             "baseline": safe_name(baseline),
                             "rubrics": {"pairwise": {"template": template, "scale": "five_way"}}}
        if isinstance(config.get("max_tokens"), int):
            found.judge_table["max_tokens"] = config["max_tokens"]
        found.judge = safe_name(str(config.get("judge_model")))
    _add_published(root, found)
    _add_judgments(bench, ids, found)
    if found.verdicts:
        found.board = {"name": "arena_hard", "baseline": safe_name(baseline), "judge": found.judge,
                       "verdicts": f"verdicts/{found.judge}.jsonl"}
    return found


def _add_judgments(bench: Path, ids: set[str], found: LeaderboardFiles) -> None:
    """Arena-Hard's published judgments of the judge named by its config (model_judgment/<judge>/<model>.jsonl:
    question_id, model, games = [{score}, {score}] — game 1 with the baseline as A), as recorded verdicts."""
    folder = bench / "model_judgment" / str(found.judge)
    for path in sorted(folder.glob("*.jsonl")):
        model = safe_name(path.stem)
        if model not in found.answers:
            continue
        for record in read_json_lines(path, found) or []:
            games = record.get("games")
            if str(record.get("question_id")) in ids and isinstance(games, list) and len(games) == 2:
                found.verdicts.append({"id": str(record["question_id"]), "model": model,
                                       "games": [g.get("score") if isinstance(g, dict) else None for g in games]})


def _first_turn(turns: Any) -> str | None:
    if isinstance(turns, list) and turns and isinstance(turns[0], dict) and isinstance(turns[0].get("content"), str):
        return turns[0]["content"]
    return None


def _judge_config(root: Path, bench: Path, found: LeaderboardFiles) -> dict[str, Any] | None:
    """The judge_config*.yaml that names this bench (config/ of the checkout), or None with a problem."""
    import yaml

    for path in sorted({*root.glob("config/judge_config*.yaml"), *bench.parent.glob("config/judge_config*.yaml"),
                        *bench.parent.parent.glob("config/judge_config*.yaml")}):
        try:
            config = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as exc:
            found.problems.append(f"{path}: cannot be read ({exc})")
            return None
        if isinstance(config, dict) and config.get("bench_name") in (None, bench.name):
            return config
    found.problems.append(f"{root}: no config/judge_config*.yaml for {bench.name} (its judge model and prompts)")
    return None


def _add_published(root: Path, found: LeaderboardFiles) -> None:
    """The newest leaderboard/*.csv: each imported model's score and interval as Arena-Hard published them."""
    tables = sorted(root.glob("leaderboard/*.csv"))
    if not tables:
        return
    with open(tables[-1], newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            model = safe_name(row.get("model") or "")
            if model in found.answers:
                try:
                    found.published[model] = {"score": float(row["score"]), "lower": float(row["rating_q025"]),
                                              "upper": float(row["rating_q975"])}
                except (KeyError, ValueError):
                    continue
