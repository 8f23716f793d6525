"""Read records from jsonl / json / csv / parquet files, setting malformed rows aside with their line."""
from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import orjson

from ..core.records import LoadResult, Reject
from .csv_header import canonical_csv_header
from .json_depth import depth_problem
from .jsonl_blocks import is_blank_line, start_before, without_bom
from .storage import open_binary, read_input_bytes

SUPPORTED_SUFFIXES = (".jsonl", ".json", ".csv", ".parquet")
Record = tuple[int | None, Any, str | None]  # (line, record or None, location)


def readable_records(items: Iterable[tuple[int, Record | Reject]],
                     result: LoadResult) -> Iterator[tuple[int, int | None, Any, str | None]]:
    """(position, line, record, location) of each readable record among `items` ((position, record or Reject)
    pairs), every item counted in result.input_rows and each unreadable one set aside in result.rejects."""
    for position, item in items:
        result.input_rows += 1
        if isinstance(item, Reject):
            result.rejects.append(item)
            continue
        yield position, *item


def iter_records(path: Path, rows: range | None = None) -> Iterator[Record | Reject]:
    """Yield (line, record, location) per row of `path`, or a Reject for a row that cannot be read; with `rows`,
    only the records at those 0-based positions (a JSON-lines file is not parsed outside them)."""
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        yield from _iter_jsonl(path, rows)
    elif rows is not None:
        for position, item in enumerate(iter_records(path)):
            if position >= rows.stop:
                return
            if position >= rows.start:
                yield item
    elif suffix == ".json":
        yield from _iter_json(path)
    elif suffix == ".csv":
        yield from _iter_csv(path)
    elif suffix == ".parquet":
        yield from _iter_parquet(path)
    else:
        raise ValueError(f"unsupported file type {suffix!r} for {path} (use one of {', '.join(SUPPORTED_SUFFIXES)})")


def _iter_jsonl(path: Path, rows: range | None = None) -> Iterator[Record | Reject]:
    """Line by line (no block bookkeeping: a reader that stops after a few records reads little), from the nearest
    known record start before `rows`."""
    source, start = str(path), start_before(path, rows)
    position = start.position - 1
    with open_binary(path) as handle:
        handle.seek(start.byte)
        for number, raw in enumerate(handle, start=start.line):
            if number == 1:
                raw = without_bom(raw)
            if is_blank_line(raw):
                continue
            position += 1
            if rows is not None and position < rows.start:
                continue
            if rows is not None and position >= rows.stop:
                return
            yield decode_jsonl_line(source, number, raw)


def decode_jsonl_line(source: str, number: int, raw: bytes, lenient: bool = False) -> Record | Reject:
    """One JSON line as (line, record, None), or a Reject saying why it cannot be read; `lenient` also reads what
    Python's json reads beyond strict JSON (NaN, Infinity), as other harnesses write them."""
    too_deep = depth_problem(raw)
    if too_deep is not None:
        return Reject(source, number, too_deep)
    try:
        return (number, orjson.loads(raw), None)
    except orjson.JSONDecodeError as exc:
        if lenient:
            try:
                return (number, json.loads(raw.decode("utf-8")), None)
            except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
                pass
        undecodable = _undecodable(raw)
        if undecodable:
            reason = (f"undecodable bytes (not UTF-8) at byte {undecodable.start} of the line: "
                      f"{raw[undecodable.start:undecodable.end]!r}")
        elif exc.pos >= len(raw.rstrip()):
            reason = "the line ends before its JSON does (cut off?)"
        else:
            reason = f"malformed JSON at column {exc.colno}: {exc.msg}"
        return Reject(source, number, reason)


def _undecodable(raw: bytes) -> UnicodeDecodeError | None:
    """Where the line stops being UTF-8, or None when it is UTF-8."""
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc
    return None


def _iter_json(path: Path) -> Iterator[Record | Reject]:
    source = str(path)
    try:
        text = read_input_bytes(path).decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        yield Reject(source, None, f"undecodable bytes (not UTF-8) at byte {exc.start}")
        return
    stripped = text.lstrip()
    if stripped.startswith("["):
        yield from iter_json_values(text, source)
        return
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        yield Reject(source, exc.lineno, f"malformed JSON: {exc.msg}")
        return
    except RecursionError:
        yield Reject(source, None, "JSON nested too deeply for the reader; the file is unreadable")
        return
    yield from _iter_json_document(document)


def iter_json_values(text: str, source: str, array: bool = True) -> Iterator[Record | Reject]:
    """The values of a top-level JSON array — or, with `array` False, of JSON values one after another — decoded one
    by one so each keeps its line (Python's decoder: NaN / Infinity read, nesting too deep a Reject, never a crash);
    a malformed value ends the reading with a Reject."""
    decoder = json.JSONDecoder()
    position = text.index("[") + 1 if array else 0
    line = text.count("\n", 0, position) + 1
    index = 0
    while True:
        end = _skip_space(text, position)
        line += text.count("\n", position, end)
        position = end
        if position >= len(text):
            if array:
                yield Reject(source, line, "malformed JSON: array is not closed")
            return
        if array and text[position] == "]":
            return
        if array and index and text[position] == ",":
            position += 1
            continue
        try:
            record, end = decoder.raw_decode(text, position)
        except json.JSONDecodeError as exc:
            yield Reject(source, exc.lineno, f"malformed JSON: {exc.msg}; the rest of the file is unreadable")
            return
        except RecursionError:
            yield Reject(source, line, "JSON nested too deeply for the reader; the rest of the file is unreadable")
            return
        yield (line, record, f"[{index}]")
        line += text.count("\n", position, end)
        position = end
        index += 1


def _skip_space(text: str, position: int) -> int:
    while position < len(text) and text[position] in " \t\r\n":
        position += 1
    return position


def _iter_json_document(document: Any) -> Iterator[Record | Reject]:
    """Flatten the whole-document shapes: seed 003's test_cases_by_scene, SQuAD (data → paragraphs → qas) and
    {id: answer} maps."""
    if isinstance(document, dict) and isinstance(document.get("test_cases_by_scene"), dict):
        for scene, cases in document["test_cases_by_scene"].items():
            for index, case in enumerate(cases if isinstance(cases, list) else [cases]):
                record = {"scene": scene, **case} if isinstance(case, dict) else case
                yield (None, record, f"test_cases_by_scene[{json.dumps(scene, ensure_ascii=False)}][{index}]")
        return
    if isinstance(document, dict) and isinstance(document.get("data"), list):
        for a, article in enumerate(document["data"]):
            for p, paragraph in enumerate(article.get("paragraphs", []) if isinstance(article, dict) else []):
                for q, qa in enumerate(paragraph.get("qas", []) if isinstance(paragraph, dict) else []):
                    if isinstance(qa, dict):
                        qa = {**qa, "context": paragraph.get("context"), "title": article.get("title")}
                    yield (None, qa, f"data[{a}].paragraphs[{p}].qas[{q}]")
        return
    if isinstance(document, dict):
        for key, value in document.items():
            record = value if isinstance(value, dict) else {"prediction": value}
            yield (None, {"id": key, **record}, f"[{json.dumps(key, ensure_ascii=False)}]")
        return
    yield (1, document, None)


def _iter_csv(path: Path) -> Iterator[Record | Reject]:
    source = str(path)
    text = read_input_bytes(path).decode("utf-8-sig", errors="surrogateescape")
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader)
    except StopIteration:
        return
    header = canonical_csv_header([name.strip() for name in header])
    start = reader.line_num + 1
    for row in reader:
        line, start = start, reader.line_num + 1
        if not any(cell.strip() for cell in row):
            continue
        if any(_has_surrogates(cell) for cell in row):
            yield Reject(source, line, "undecodable bytes (not UTF-8)")
        elif len(row) != len(header):
            yield Reject(source, line, f"expected {len(header)} fields, got {len(row)}")
        else:
            yield (line, dict(zip(header, row)), None)


def _has_surrogates(cell: str) -> bool:
    return any("\udc80" <= ch <= "\udcff" for ch in cell)


def _iter_parquet(path: Path) -> Iterator[Record | Reject]:
    import pyarrow.parquet as pq

    try:
        with open_binary(path) as handle:
            table = pq.read_table(handle)
    except Exception as exc:  # a broken file is one reject, never a crash
        yield Reject(str(path), None, f"unreadable parquet file: {exc}")
        return
    for number, record in enumerate(table.to_pylist(), start=1):
        yield (number, record, f"row {number}")
