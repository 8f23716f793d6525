"""B6's item explorer read from the artifacts: a bounded selection of items, shard by shard — statuses from the B4
columns, texts looked up in Arrow for the chosen items only, scores from the item values B6 already took."""
from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from stages import Kind
from stages.core.records import Columns, Rows, column_length
from stages.io.artifacts import read_artifact_json, read_column, read_rows_at, read_rows_with_ids, read_table
from stages.report.explorer import (
    NOT_RIGHT_CAP,
    SAMPLE_CAP,
    choose_items,
    explorer_items,
    item_starts,
    item_views,
    merge_explorers,
    reply_texts,
)
from stages.report.renderers import header_parameters, renderer_for

from .task_base import StageTask
from .tasks import B1Questions, B2Predictions, B3Normalize, B4Match, stage_rows

if TYPE_CHECKING:
    import pyarrow as pa
    from upath import UPath


def explorer(report: StageTask, kind: Kind, primary: str, items: dict[str, dict[str, list]], questions: list[dict],
             predictions: dict[str, list[dict]]) -> dict[str, Any]:
    """The item explorer of B6 task `report`, its shards' selections merged (`items`: each model's per-item values,
    `questions` / `predictions`: the B1 / B2 documents per shard)."""
    shards = report.spec["shards"]
    scores_of = {model: values.get(primary) or next(iter(values.values()), []) for model, values in items.items()}
    parts, offset = [], 0
    for shard in range(shards):
        part, items_in_shard = _shard_part(report, kind, shard, scores_of, offset, questions[shard], predictions)
        parts.append(part)
        offset += items_in_shard
    return merge_explorers(parts)


def _shard_part(report: StageTask, kind: Kind, shard: int, scores_of: dict[str, list], offset: int,
                questions: dict[str, Any], predictions: dict[str, list[dict]]) -> tuple[dict[str, Any], int]:
    """One shard's explorer items and how many items the shard holds."""
    shards, models = report.spec["shards"], sorted(report.spec["predictions"])
    b1 = _task(report, B1Questions, shard).artifact_path()
    readings = {model: _matched_rows(kind, _task(report, B4Match, shard, model)) for model in models}
    starts = {model: found for model, (_, found, _) in readings.items() if found is not None}
    chosen, not_right = choose_items(kind, {model: rows for model, (rows, _, _) in readings.items()},
                                     max(1, NOT_RIGHT_CAP // shards), max(1, SAMPLE_CAP // shards), starts)
    views = {model: view(chosen) for model, (_, _, view) in readings.items()}
    chosen_rows = read_rows_at(b1, chosen, [name for name in ("id", "question", "golds")
                                            if name in questions.get("columns", ())], questions)
    ids = chosen_rows["id"]
    set_aside = [{"where": "questions", **r} for r in questions.get("rejects", [])]
    texts, scores = {}, {}
    for model in models:
        found = _answers(report, model, shard, ids, predictions[model], model in starts)
        texts[model] = (_by_id(found, ids, "prediction") if model not in starts
                        else reply_texts(found, ids, views[model]))
        set_aside += [{"where": model, **r} for r in predictions[model][shard].get("rejects", [])]
        values = scores_of.get(model, [])
        scores[model] = [values[offset + i] if offset + i < len(values) else None for i in chosen]
    rows, found, _ = next(iter(readings.values()))
    items_in_shard = column_length(rows) if found is None else len(found)
    return explorer_items(ids, chosen_rows.get("question") or [None] * len(ids),
                          chosen_rows.get("golds") or [None] * len(ids), texts, views, scores, items_in_shard,
                          not_right, set_aside, frozenset(starts), kind.name), items_in_shard


def _task(report: StageTask, cls: type[StageTask], shard: int, model: str = "") -> StageTask:
    return cls(outputs_dir=report.outputs_dir, spec=report.spec, model=model, shard=shard)


def _answers(report: StageTask, model: str, shard: int, ids: list[Any], documents: list[dict],
             sampled: bool) -> pa.Table:
    """The prediction rows with these ids (and their sample numbers, of several replies per item) in the B2 shards
    B3 took this shard's answers from, in file order."""
    import pyarrow as pa

    wanted = [str(i) for i in ids]
    columns = ["id", "prediction", *(["sample"] if sampled else [])]
    return pa.concat_tables([read_rows_with_ids(_task(report, B2Predictions, near, model).artifact_path(), wanted,
                                                columns, documents[near])
                             for near in _task(report, B3Normalize, shard, model).neighbours()],
                            promote_options="permissive")


def _by_id(found: Any, ids: list[str], column: str) -> list[Any]:
    """`column`'s value for each id in rows found by id, the first row of an id (None where the id has no row)."""
    import pyarrow as pa

    values = dict(zip(reversed(found.column("id").cast(pa.string()).to_pylist()),
                      reversed(found.column(column).to_pylist())))
    return [values.get(str(row_id)) for row_id in ids]


def _matched_rows(kind: Kind, task: StageTask) -> tuple[Rows, list[int] | None, Callable[[list[int]], list[Any]]]:
    """A model's B4 rows for choosing explorer items, each item's first row when it has several replies per item
    (else None), and the item views of chosen items — of several replies, each reply's (sample, status, reading,
    renderer fields, vote): of a columnar kind with a status column, that column alone, and the chosen rows read
    whole one row group at a time."""
    path = task.artifact_path()
    document = read_artifact_json(path)
    if not (kind.columnar_stages and kind.status_column):
        rows = stage_rows(task)
        views = partial(item_views, kind, rows)
    else:
        rows = read_table(path, [kind.status_column], document)
        views = partial(_views_at, kind, path, document)
    renderer = renderer_for(kind.name)
    parameters = header_parameters(document, renderer.match_parameters)
    view = partial(_with_normalized, views, task, renderer.normalized_columns, parameters)
    if "sample" not in document.get("columns", ()):
        return rows, None, view
    ids, samples = read_column(path, "id").to_pylist(), read_column(path, "sample").to_pylist()
    votes = _votes(kind, task, len(ids))
    starts = item_starts(ids)
    bounds = [*starts, len(ids)]

    def replies_view(chosen: list[int]) -> list[list[tuple[int | None, str, str, dict, Any]]]:
        replies = [range(bounds[item], bounds[item + 1]) for item in chosen]
        views = iter(view([row for rows_of in replies for row in rows_of]))
        return [[(samples[row], *next(views), votes[row]) for row in rows_of] for rows_of in replies]

    return rows, starts, replies_view


def _votes(kind: Kind, task: StageTask, rows: int) -> list[Any]:
    """Each B4 row's answer maj@k votes on (the kind's vote column, of B4 or of B3 row for row), None for a kind
    that does not vote."""
    if kind.vote_column is None:
        return [None] * rows
    stage, name = kind.vote_column
    path = (task if stage == "B4" else task.requires()).artifact_path()
    return read_column(path, name).to_pylist()


def _with_normalized(views: Callable[..., list[Any]], task: StageTask, columns: tuple[str, ...],
                     parameters: dict[str, Any], chosen: list[int]) -> list[Any]:
    """`views` of the rows at `chosen`, with the B3 `columns` the kind's renderer reads of those rows (B3 and B4 rows
    are one to one) and the B4 `parameters` it reads (the same for every row), where it reads some."""
    found: Columns = {name: [value] * len(chosen) for name, value in parameters.items()}
    if columns:
        path = task.requires().artifact_path()
        document = read_artifact_json(path)
        present = [name for name in columns if name in document.get("columns", ())]
        found.update(read_rows_at(path, chosen, present, document) if present else {})
    return views(chosen, found or None)


def _views_at(kind: Kind, path: UPath, document: dict[str, Any], chosen: list[int],
              normalized: Columns | None = None) -> list[tuple[str, str, dict]]:
    """The item views of the B4 rows at `chosen`, read whole one row group at a time."""
    return item_views(kind, read_rows_at(path, chosen, document["columns"], document), None, normalized)
