"""BFCL's items and replies read as rows: items with their function docs and possible answer (from
`possible_answer/<same file name>` beside the data file, or a `ground_truth` field), replies as bfcl-eval's result
records, OpenAI messages with tool_calls, or plain text. Rows that cannot be scored are set aside with their line."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...core.records import LoadResult, Reject
from ...io.fields import PREDICTION_FIELDS, get_record_id
from ...io.readers import readable_records
from .episodes import mock_apis_cause, mock_apis_missing
from .func_docs import FuncDocs, func_doc_folder
from .json_lines import read_records
from .summary import AGENTIC
from .verdicts import FUNCTION_CALLS, TEXT, TOOL_CALLS, category_of, is_relevance, language_of

QUESTION_COLUMNS = ("id", "line", "question", "golds", "category", "language", "functions", "answer", "episode",
                    "messages")
PREDICTION_COLUMNS = ("id", "line", "prediction", "reply_format")


def possible_answers(path: Path) -> tuple[dict[str, Any], Path]:
    """{id: ground_truth} from `possible_answer/<same file name>` beside the data file ({} when there is none)."""
    beside = path.parent / "possible_answer" / path.name
    answers: dict[str, Any] = {}
    if beside.is_file():
        for item in read_records(beside):
            if not isinstance(item, Reject) and isinstance(item[1], dict) and "id" in item[1]:
                answers[str(item[1]["id"])] = item[1].get("ground_truth")
    return answers, beside


def _item_problem(record: dict, category: str) -> str | None:
    if "multi_turn" in category:
        missing = mock_apis_missing()
        if missing is not None:
            return missing
        if not isinstance(record.get("involved_classes"), list) or not isinstance(record.get("initial_config"), dict):
            return "a multi-turn item needs involved_classes (a list) and initial_config (an object)"
        missed = record.get("missed_function", {})
        if not isinstance(missed, dict) or not all(isinstance(names, list) for names in missed.values()):
            return "missed_function is not a table of turn → function names"
        return None if isinstance(record.get("question"), list) else "question is not a list of turns"
    if category in AGENTIC or category.startswith(("web_search", "memory")):
        return f"{category} needs live services (web search, memory); not run offline"
    functions = record.get("function")
    if not isinstance(functions, list) or not (functions or is_relevance(category)) or not all(
            isinstance(f, dict) and isinstance(f.get("name"), str) and isinstance(f.get("parameters"), dict)
            and isinstance(f["parameters"].get("properties"), dict) for f in functions):
        return "function is not a list of function docs (name, parameters.properties)" + (
            "" if functions or not isinstance(functions, list) else ": empty")
    if not isinstance(record.get("question"), list):
        return "question is not a list of turns"
    return None


def _answer_problem(answer: Any, category: str) -> str | None:
    if "multi_turn" in category:
        if not isinstance(answer, list) or not all(isinstance(turn, list) and all(isinstance(call, str) for call in turn)
                                                   for turn in answer):
            return "a multi-turn ground_truth is not a list of turns, each a list of call texts"
        return None
    if not isinstance(answer, list) or not all(isinstance(call, dict) and len(call) == 1 and isinstance(
            next(iter(call.values())), dict) for call in answer):
        return "ground_truth is not a list of {function: {parameter: [acceptable values]}}"
    return None


def first_user_text(question: list) -> str:
    """The item's first user message, shown as its question."""
    for turn in question:
        for message in turn if isinstance(turn, list) else [turn]:
            if isinstance(message, dict) and message.get("role") == "user":
                return str(message.get("content", ""))
    return ""


def load_items(path: Path, fields: dict[str, str | None], params: dict[str, Any] | None = None) -> LoadResult:
    """B1: every scorable item, with its category, language, function docs (a multi-turn item's from BFCL's
    multi_turn_func_doc/, see func_docs.py), possible answer and turns of messages (JSON text)."""
    answers, beside = possible_answers(path)
    docs = FuncDocs(func_doc_folder(path, (params or {}).get("bfcl_data") or None))
    missing = mock_apis_missing()
    return _read_rows(path, fields, QUESTION_COLUMNS,
                      lambda record, item_id: _item_row(record, item_id, answers, beside, docs),
                      {} if missing is None else {missing: mock_apis_cause()})


def load_replies(path: Path, fields: dict[str, str | None]) -> LoadResult:
    """B2: one reply per id — `result` (bfcl-eval: text, or a function-calling model's list), an OpenAI message's
    tool_calls or content, or the usual prediction fields' text."""
    return _read_rows(path, fields, PREDICTION_COLUMNS,
                      lambda record, reply_id: _reply_row(record, reply_id, fields.get("prediction_field")))


def _read_rows(path: Path, fields: dict[str, str | None], columns: tuple[str, ...],
               row_of: Callable[[dict, str], tuple[str | None, dict[str, Any]]],
               unscored: dict[str, str] | None = None) -> LoadResult:
    """Each record of `path` as a row of `columns` (`row_of` gives a record's row, or why it is set aside); a record
    that is no object, has no id or repeats one is set aside with its line; one set aside for a reason in `unscored`
    (a part that is not installed) is an item not scored, with that cause."""
    result = LoadResult(columns={name: [] for name in columns})
    seen: dict[str, int] = {}
    for _, line, record, location in readable_records(enumerate(read_records(path)), result):
        row_id = get_record_id(record, line, fields.get("id_field")) if isinstance(record, dict) else None
        if not isinstance(record, dict):
            reason, row = f"expected a JSON object, got {type(record).__name__}", {}
        elif row_id is None:
            reason, row = "no id", {}
        elif row_id in seen:
            reason, row = f"duplicate id {row_id!r} (first seen at line {seen[row_id]})", {}
        else:
            reason, row = row_of(record, row_id)
        if reason is not None:
            cause = (unscored or {}).get(reason)
            result.rejects.append(Reject(str(path), line, reason, row_id if cause else location, cause))
            continue
        seen[row_id] = line
        for name in columns:
            result.columns[name].append(line if name == "line" else row[name])
    return result


def _item_row(record: dict, item_id: str, answers: dict[str, Any], beside: Path,
              docs: FuncDocs) -> tuple[str | None, dict[str, Any]]:
    category = category_of(item_id)
    problem = _item_problem(record, category)
    if problem is not None:
        return problem, {}
    answer = None
    if not is_relevance(category):
        answer = record.get("ground_truth", answers.get(item_id))
        if answer is None:
            return f"no possible answer for {item_id} (no ground_truth field, none in {beside})", {}
        problem = _answer_problem(answer, category)
        if problem is not None:
            return problem, {}
    golds = [json.dumps(answer, ensure_ascii=False)] if answer is not None else [
        "no call" if "irrelevance" in category else "a call"]
    episode = {key: record[key] for key in ("initial_config", "involved_classes", "missed_function")
               if key in record} if "multi_turn" in category else None
    functions = record.get("function", [])
    if episode is not None:
        functions, problem = docs.of(record["involved_classes"])
        episode.update({"docs_problem": problem} if problem else {})
    return None, {"id": item_id, "question": first_user_text(record["question"]), "golds": golds,
                  "category": category, "language": language_of(category),
                  "functions": json.dumps(functions, ensure_ascii=False),
                  "answer": None if answer is None else golds[0],
                  "episode": None if episode is None else json.dumps(episode, ensure_ascii=False),
                  "messages": json.dumps(record["question"], ensure_ascii=False)}


def _reply_row(record: dict, reply_id: str, field: str | None) -> tuple[str | None, dict[str, Any]]:
    reply, reply_format = _reply(record, field)
    if reply_format is None:
        return reply, {}
    return None, {"id": reply_id, "prediction": reply if reply_format == TEXT else json.dumps(reply, ensure_ascii=False),
                  "reply_format": reply_format}


def _reply(record: dict, field: str | None) -> tuple[Any, str | None]:
    """(the reply, its format), or (why there is none, None)."""
    message = record.get("message") if isinstance(record.get("message"), dict) else record
    if field is None and "result" in record:
        value = record["result"]
        if isinstance(value, str):  # a function-calling model's text is read as its calls (and fails), as bfcl-eval does
            return value, FUNCTION_CALLS if record.get("reply_format") == FUNCTION_CALLS else TEXT
        if isinstance(value, list):
            return value, FUNCTION_CALLS
        return f"wrong type: result is a {type(value).__name__}, expected text or a list of calls", None
    if field is None and message.get("tool_calls"):
        if not isinstance(message["tool_calls"], list):
            return "wrong type: tool_calls is not a list", None
        return message["tool_calls"], TOOL_CALLS
    names = (field,) if field else ("content", *PREDICTION_FIELDS)
    for name in names:
        value = message.get(name) if name == "content" else record.get(name)
        if isinstance(value, str):
            return value, TEXT
        if value is not None:
            return f"wrong type: {name} is a {type(value).__name__}, expected text", None
    return f"no reply (looked for result, tool_calls, {', '.join(names)})", None


def decoded_reply(prediction: str | None, reply_format: str | None) -> Any:
    """The reply B2 kept: text as it is, calls back from their JSON text."""
    if prediction is None or reply_format in (None, TEXT):
        return prediction
    return json.loads(prediction)

