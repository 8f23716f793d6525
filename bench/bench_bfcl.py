"""The function_calling kind measured: every non-agentic BFCL v4 category (3,641 single-turn items, 800 multi-turn
episodes) answered by two models — a prompting model's text and a function-calling model's call lists, each item the
possible answer or one of its perturbations in turn (tests/stages/kinds/function_calling/make_bfcl_reference.py) —
written as a bfcl-eval result folder, then scored by bfcl-eval's own evaluation (eval_runner.runner: score files and
data_overall.csv) and by evalpipe's kind (B1–B2 reading the same files, B3–B5) in one process; the same verdict and
error_type required on every item.

Usage: /work/venvs/bfcl/bin/python bench/bench_bfcl.py
Needs bfcl-eval in the bench's own venv: `pip install --no-deps bfcl-eval==2026.3.23 mpmath` plus what its evaluator
imports (tree_sitter==0.21.3, tree-sitter-java==0.21.0, tree-sitter-javascript==0.21.4, filelock==3.20.0, tenacity,
python-dotenv, openai, overrides; the venv made with --system-site-packages so evalpipe's own dependencies are seen).
"""
from __future__ import annotations

import contextlib
import io
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "stages" / "kinds" / "function_calling"))
import make_bfcl_reference as reference  # noqa: E402

from stages import get_kind  # noqa: E402
from stages.io.join import join_predictions  # noqa: E402


def write_results(folder: Path) -> dict[str, int]:
    """One result per item of every category for each model: the item's perturbations taken in turn."""
    from bfcl_eval.utils import get_directory_structure_by_category

    counts = {}
    for category in (*reference.CATEGORIES, *reference.MULTI_TURN):
        entries = reference._lines(reference.DATA / f"BFCL_v4_{category}.json")
        answers_path = reference.DATA / "possible_answer" / f"BFCL_v4_{category}.json"
        answers = {a["id"]: a["ground_truth"] for a in reference._lines(answers_path)} if answers_path.exists() else {}
        language = "javascript" if "javascript" in category else "java" if "java" in category else "python"
        for model, fc in reference.MODELS.items():
            lines = []
            for index, entry in enumerate(entries):
                answer = answers.get(entry["id"])
                if "multi_turn" in category:
                    replies = {case: result for case, result in reference._episode_replies(answer).items()
                               if fc == (case == "function_calls")} or {"exact": []}
                else:
                    replies = reference._replies(entry, answer, language, fc)
                result = list(replies.values())[index % len(replies)]
                lines.append(json.dumps({"id": entry["id"], "result": result}))
            target = folder / "result" / model / get_directory_structure_by_category(category)
            target.mkdir(parents=True, exist_ok=True)
            (target / f"BFCL_v4_{category}_result.json").write_text("\n".join(lines) + "\n")
            counts[category] = len(entries)
    return counts


def bfcl_verdicts(folder: Path) -> tuple[dict[str, dict[str, str]], float]:
    """bfcl-eval's evaluation of the whole folder, timed; per model {invalid id: error_type} from its score files."""
    eval_runner, _, _, _ = reference._bfcl()
    categories = [*reference.CATEGORIES, *reference.MULTI_TURN]
    started = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        eval_runner.runner(list(reference.MODELS), categories, folder / "result", folder / "score")
    seconds = time.perf_counter() - started
    invalid: dict[str, dict[str, str]] = {}
    for model in reference.MODELS:
        found = invalid.setdefault(model, {})
        for path in (folder / "score" / model).rglob("*_score.json"):
            for line in reference._lines(path)[1:]:
                found[line["id"]] = line.get("error_type") or line["error"]["error_type"]
    return invalid, seconds


def evalpipe_verdicts(folder: Path, data: Path) -> tuple[dict[str, dict[str, str]], float]:
    """evalpipe's kind on the same folder: B1 and B2 read the files, B3–B5 score; per model {invalid id: error_type}."""
    kind = get_kind("function_calling")
    started = time.perf_counter()
    questions = {"id": []}
    for path in sorted(data.glob("BFCL_v4_*.json")):
        loaded = kind.load_gold(path, {}).columns
        for name, values in loaded.items():
            questions.setdefault(name, []).extend(values)
    invalid = {}
    for model in reference.MODELS:
        replies: dict[str, list] = {}
        for path in sorted((folder / "result" / model).rglob("*_result.json")):
            for name, values in kind.load_predictions(path, {}).columns.items():
                replies.setdefault(name, []).extend(values)
        joined, _ = join_predictions(questions, replies)
        normalized, _ = kind.normalize(joined, {})
        matched, _ = kind.match(normalized, {})
        kind.score(matched, {})
        invalid[model] = {row_id: error for row_id, valid, error in zip(matched["id"], matched["valid"],
                                                                        matched["error_type"]) if not valid}
    return invalid, time.perf_counter() - started


def main() -> None:
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        counts = write_results(folder)
        single = sum(n for c, n in counts.items() if "multi_turn" not in c)
        multi = sum(n for c, n in counts.items() if "multi_turn" in c)
        theirs, bfcl_seconds = bfcl_verdicts(folder)
        ours, our_seconds = evalpipe_verdicts(folder, reference.DATA)
    differing = [(m, i, theirs[m].get(i), ours[m].get(i)) for m in reference.MODELS
                 for i in sorted(set(theirs[m]) | set(ours[m])) if theirs[m].get(i) != ours[m].get(i)]
    for found in differing[:10]:
        print("differs:", *found, file=sys.stderr)
    items = 2 * (single + multi)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print("| items (2 models) | single-turn | multi-turn | bfcl-eval s | evalpipe s | ratio | items/s evalpipe "
          "| verdicts differing | peak MiB |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(f"| {items:,} | {single:,} | {multi:,} | {bfcl_seconds:.1f} | {our_seconds:.1f} | "
          f"{bfcl_seconds / our_seconds:.2f}× | {items / our_seconds:,.0f} | {len(differing)} | {peak:,.0f} |")


if __name__ == "__main__":
    main()
