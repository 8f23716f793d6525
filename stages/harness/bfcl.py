"""bfcl-eval's result folder read as ONE `function_calling` dataset, `bfcl`: ROOT/result/<model>/<group>/
BFCL_v4_<category>_result.json for every model, BFCL's items and possible answers from its data folder (--data, by
default the installed bfcl-eval's), bfcl-eval's own figures from ROOT/score/ beside evalpipe's."""
from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from typing import Any

from ..core.errors import UsageError
from ..core.records import Reject
from ..io.storage import open_binary
from ..kinds.function_calling.episodes import INSTALL, mock_apis_missing
from ..kinds.function_calling.func_docs import DOC_FOLDER
from ..kinds.function_calling.json_lines import read_records
from ..kinds.function_calling.summary import AGENTIC
from ..kinds.function_calling.verdicts import FUNCTION_CALLS, category_of
from .imported import ImportedRun, SkippedFile, register_importer

RESULT_FILE = re.compile(r"^BFCL_v4_(\w+?)_result\.json$")
TASK = "bfcl"


def installed_data() -> Path | None:
    """The data folder of the installed bfcl-eval (None when it is not installed)."""
    spec = importlib.util.find_spec("bfcl_eval")
    if spec is None or spec.origin is None:
        return None
    folder = Path(spec.origin).parent / "data"
    return folder if folder.is_dir() else None


def _result_root(root: Path) -> Path:
    return root / "result" if (root / "result").is_dir() else root


def _not_scored_offline(category: str) -> str | None:
    if "multi_turn" in category:
        return mock_apis_missing()
    if category in AGENTIC or category.startswith(("web_search", "memory", "format_sensitivity")):
        return f"{category} needs live services; not run offline"
    return None


@register_importer("bfcl")
def read_bfcl(paths: list[Path], data: Path | None = None) -> list[ImportedRun | SkippedFile]:
    """Every model's result files under each ROOT as one run of `bfcl`; every run holds the same items (those any
    model answered, of every category found), so the dataset is one."""
    data = data or installed_data()
    if data is None or not data.is_dir():
        raise UsageError(f"BFCL's data folder is needed: --data DATA (bfcl-eval's data/), or `{INSTALL}`")
    found: list[ImportedRun | SkippedFile] = []
    replies: dict[str, tuple[list[dict], list[str], list[str]]] = {}  # model → (predictions, files, set aside)
    for root in paths:
        results = _result_root(root)
        if not results.is_dir():
            raise UsageError(f"{root}: no such folder")
        for model_folder in sorted(p for p in results.iterdir() if p.is_dir()):
            predictions, files, set_aside = replies.setdefault(model_folder.name, ([], [], []))
            for path in sorted(model_folder.rglob("BFCL_v4_*_result.json")):
                category = RESULT_FILE.match(path.name).group(1)
                why = _not_scored_offline(category)
                if why is not None:
                    found.append(SkippedFile(str(path), why))
                    continue
                files.append(str(path))
                predictions.extend(_results(path, category, set_aside))
    if not replies:
        return found
    items, unknown = _items(data, {p["id"] for predictions, _, _ in replies.values() for p in predictions})
    params = _docs_param(data, items)
    for model, (predictions, files, set_aside) in replies.items():
        set_aside.extend(f"{model}: id {p['id']}: {unknown[p['id']]}" for p in predictions if p["id"] in unknown)
        kept = [p for p in predictions if p["id"] not in unknown]
        _as_function_calls(kept)
        scores = _scores(paths, model)
        found.append(ImportedRun(tool="bfcl", tool_version=None, task=TASK, model=model,
                                 file=files[0] if files else str(paths[0]), kind="function_calling",
                                 questions=items, predictions=kept, metrics=scores, set_aside=set_aside,
                                 params=params))
    return found


def _docs_param(data: Path, items: list[dict[str, Any]]) -> dict[str, str]:
    """`bfcl_data` for dataset.toml when multi-turn items were imported and `data` holds their function docs, so
    another model can be asked them live from the imported folder; else nothing."""
    if any("multi_turn" in item["id"] for item in items) and (data / DOC_FOLDER).is_dir():
        return {"bfcl_data": str(data.resolve())}
    return {}


def _results(path: Path, category: str, set_aside: list[str]) -> list[dict[str, Any]]:
    """A result file's records ({"id", "result"}); a line that is not JSON, without an id or of another category
    set aside with its line."""
    kept = []
    for item in read_records(path):
        if isinstance(item, Reject):
            set_aside.append(f"{item.source}:{item.line}: {item.reason}")
            continue
        line, record, _ = item
        if not isinstance(record, dict) or not isinstance(record.get("id"), str) or "result" not in record:
            set_aside.append(f"{path}:{line}: not a result record (id, result)")
        elif category_of(record["id"]) != category:
            set_aside.append(f"{path}:{line}: id {record['id']} is not of {category}")
        else:
            kept.append({"id": record["id"], "result": record["result"]})
    return kept


def _as_function_calls(predictions: list[dict[str, Any]]) -> None:
    """A function-calling model (one whose single-turn results are call lists) has its text replies read as its calls
    too, as its bfcl-eval handler reads them (and fails to decode them)."""
    if any(isinstance(p["result"], list) and "multi_turn" not in p["id"] for p in predictions):
        for prediction in predictions:
            if isinstance(prediction["result"], str):
                prediction["reply_format"] = FUNCTION_CALLS


def _items(data: Path, ids: set[str]) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """The answered items from BFCL's data files, each with its possible answer as `ground_truth`; ids not found."""
    items, categories = [], sorted({category_of(item_id) for item_id in ids})
    for category in categories:
        path = data / f"BFCL_v4_{category}.json"
        if not path.is_file():
            continue
        answers_path = data / "possible_answer" / path.name
        answers = {}
        if answers_path.is_file():
            answers = {record["id"]: record.get("ground_truth") for record in _records(answers_path)}
        for record in _records(path):
            if record.get("id") in ids:
                answer = answers.get(record["id"])
                items.append({**record, **({"ground_truth": answer} if answer is not None else {})})
    present = {item["id"] for item in items}
    return items, {item_id: f"no such item in {data}" for item_id in ids - present}


def _records(path: Path) -> list[dict[str, Any]]:
    return [item[1] for item in read_records(path) if not isinstance(item, Reject) and isinstance(item[1], dict)
            and isinstance(item[1].get("id"), str)]


def _scores(paths: list[Path], model: str) -> dict[str, float]:
    """bfcl-eval's accuracy per category from ROOT/score/<model>/ (none when it has not scored the folder)."""
    scores = {}
    for root in paths:
        for path in sorted((root / "score" / model).rglob("BFCL_v4_*_score.json")):
            header = _score_header(path)
            category = path.name[len("BFCL_v4_"):-len("_score.json")]
            if isinstance(header, dict) and isinstance(header.get("accuracy"), (int, float)):
                scores[f"{category}.accuracy"] = float(header["accuracy"])
    return scores


def _score_header(path: Path) -> Any:
    """A score file's first line, its header ({"accuracy", "correct_count", "total_count"}): alone when every item
    was right, followed by the wrong items' records otherwise; None when it is not JSON."""
    with open_binary(path) as handle:
        first = handle.readline()
    try:
        return json.loads(first)
    except (ValueError, RecursionError):
        return None
