"""Join questions to one model's predictions by id (SQuAD convention: a missing prediction scores 0). Arrow tables
join in Arrow (index_in / take); Python columns, which kinds with nested per-row values keep, join in Python."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.records import Columns, Rows, column_length, column_names, column_values
from .fields import PROMPT_KEY

if TYPE_CHECKING:
    import pyarrow as pa


def join_predictions(questions: Rows, predictions: Rows,
                     distinct_question_ids: bool = False) -> tuple[Rows, dict[str, Any]]:
    """Every question with its prediction and the prediction's other fields (None when missing); predictions without
    a question are listed apart. A prediction whose id is a question's `prompt_key` answers that question. Counts:
    `joined` the questions answered, `replies` the replies joined to them (more than `joined` with several samples).
    `distinct_question_ids`: the caller knows no question id repeats (B1 sets a repeated one aside), so Arrow
    predictions whose ids equal the questions' row for row join as they are, without hashing the ids."""
    if PROMPT_KEY in column_names(questions):
        predictions = _keyed_by_prompt(questions, predictions)
    sampled = "sample" in (predictions if isinstance(predictions, dict) else predictions.column_names)
    if sampled:
        found = None if isinstance(questions, dict) or isinstance(predictions, dict) else _join_sample_tables(
            questions, predictions)
        joined, missing, unmatched = found if found is not None else _join_samples(questions, predictions)
    elif isinstance(questions, dict):
        joined, missing, unmatched = _join_columns(questions, predictions)
    else:
        joined, missing, unmatched = _join_tables(questions, predictions, distinct_question_ids)
    answered = column_length(questions) - len(missing)
    counts = {
        "questions": column_length(questions),
        "predictions": column_length(predictions),
        "joined": answered,
        "replies": column_length(joined) - len(missing) if sampled else answered,
        "missing_predictions": len(missing),
        "unmatched_predictions": len(unmatched),
    }
    return joined, {"missing_predictions": missing, "unmatched_predictions": unmatched, "counts": counts}


def _join_samples(questions: Rows, predictions: Rows) -> tuple[Rows, list, list]:
    """Each question once per reply, in sample order (the first row of an (id, sample) answers it), with its
    `sample` number; a question without a reply once, with none."""
    question_ids = _ids(questions)
    asked = set(question_ids)
    replies: dict[str, dict[int, int]] = {}
    unmatched = []
    for index, (prediction_id, sample) in enumerate(zip(_ids(predictions), column_values(predictions, "sample"))):
        if prediction_id in asked:
            replies.setdefault(prediction_id, {}).setdefault(sample, index)
        else:
            unmatched.append(prediction_id)
    question_rows, reply_rows, missing = [], [], []
    for position, question_id in enumerate(question_ids):
        found = sorted(replies.get(question_id, {}).items())
        if not found:
            missing.append(question_id)
        for _, index in found or [(None, None)]:
            question_rows.append(position)
            reply_rows.append(index)
    names = [name for name in column_names(predictions) if name not in ("id", "line")]
    if isinstance(questions, dict):
        joined = {name: [values[i] for i in question_rows] for name, values in questions.items() if name != "line"}
        for name in names:
            values = predictions[name]
            joined[name] = [None if i is None else values[i] for i in reply_rows]
        return joined, missing, list(dict.fromkeys(unmatched))
    import pyarrow as pa

    table = predictions if not isinstance(predictions, dict) else pa.table(predictions)
    joined = questions.drop_columns([name for name in ("line",) if name in questions.column_names])
    joined = joined.take(pa.array(question_rows, pa.int64()))
    taken = pa.array(reply_rows, pa.int64())
    for name in names:
        joined = joined.append_column(name, table.column(name).take(taken))
    return joined, missing, list(dict.fromkeys(unmatched))


def _join_sample_tables(questions: pa.Table, predictions: pa.Table) -> tuple[pa.Table, list, list] | None:
    """_join_samples on whole Arrow columns: each prediction row finds its question (index_in), the first row of
    each (question, sample) is kept, and rows go by question then sample, a question without a reply once with
    nulls. None when question ids repeat or a sample number is missing (_join_samples then pairs them)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    question_ids = questions.column("id").combine_chunks().cast(pa.string())
    prediction_ids = predictions.column("id").combine_chunks().cast(pa.string())
    samples = predictions.column("sample").combine_chunks()
    if samples.null_count or not pa.types.is_integer(samples.type) or len(pc.unique(question_ids)) != len(
            question_ids):
        return None
    position = pc.index_in(prediction_ids, value_set=question_ids)
    asked = pc.is_valid(position).to_numpy(zero_copy_only=False)
    rows = np.flatnonzero(asked)
    owner, sample = position.drop_null().to_numpy().astype(np.int64), samples.to_numpy()[asked]
    order = np.lexsort((rows, sample, owner))
    owner, sample, rows = owner[order], sample[order], rows[order]
    first = np.ones(len(owner), bool)
    first[1:] = (owner[1:] != owner[:-1]) | (sample[1:] != sample[:-1])
    owner, rows = owner[first], rows[first]
    answered = np.zeros(len(question_ids), bool)
    answered[owner] = True
    alone = np.flatnonzero(~answered)
    question_rows = np.concatenate([owner, alone])
    reply_rows = np.concatenate([rows, np.full(len(alone), -1)])
    order = np.argsort(question_rows, kind="stable")
    question_rows, reply_rows = question_rows[order], reply_rows[order]
    joined = questions.drop_columns([name for name in ("line",) if name in questions.column_names])
    joined = joined.take(pa.array(question_rows))
    taken = pa.array(reply_rows, mask=reply_rows < 0)
    for name in predictions.column_names:
        if name not in ("id", "line"):
            joined = joined.append_column(name, predictions.column(name).take(taken))
    missing = question_ids.take(pa.array(alone)).to_pylist()
    unmatched = prediction_ids.filter(pa.array(~asked)).to_pylist()
    return joined, missing, list(dict.fromkeys(unmatched))


def _keyed_by_prompt(questions: Rows, predictions: Rows) -> Rows:
    """The predictions with each id that is a question's prompt key replaced by that question's id."""
    questions_of = dict(zip(column_values(questions, PROMPT_KEY), _ids(questions)))
    ids = [questions_of.get(found, found) for found in _ids(predictions)]
    if isinstance(predictions, dict):
        return {**predictions, "id": ids}
    import pyarrow as pa

    return predictions.set_column(predictions.column_names.index("id"), "id", pa.array(ids, pa.string()))


def _ids(rows: Rows) -> list[str]:
    return [str(value) for value in column_values(rows, "id")]


def _join_columns(questions: Columns, predictions: Columns) -> tuple[Columns, list, list]:
    """The first prediction row with a question's id answers it, as in the Arrow join."""
    ids = predictions["id"]
    first_index = dict(zip(reversed(ids), range(len(ids) - 1, -1, -1)))
    positions = [first_index.get(question_id) for question_id in questions["id"]]
    joined = {name: values for name, values in questions.items() if name != "line"}
    for name in ("prediction", *(name for name in predictions if name not in ("id", "line", "prediction"))):
        values = predictions[name]
        joined[name] = [None if position is None else values[position] for position in positions]
    question_ids = set(questions["id"])
    missing = [qid for qid, p in zip(questions["id"], joined["prediction"]) if p is None]
    unmatched = [pid for pid in predictions["id"] if pid not in question_ids]
    return joined, missing, unmatched


def _join_tables(questions: pa.Table, predictions: pa.Table,
                 distinct_question_ids: bool = False) -> tuple[pa.Table, list, list]:
    """The first prediction row with a question's id answers it (index_in finds the first); predictions already in
    the questions' order join as they are, without a copy (found without index_in's hashing when the question ids
    are known to be distinct and equal the predictions' row for row: 0.004 s against 0.19 s for a million)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    question_ids = questions.column("id").cast(pa.string())
    prediction_ids = predictions.column("id").cast(pa.string())
    in_order = distinct_question_ids and predictions.num_rows == questions.num_rows and pc.all(
        pc.fill_null(pc.equal(question_ids, prediction_ids), False)).as_py()
    position = (pa.array(np.arange(questions.num_rows)) if in_order
                else pc.index_in(question_ids, value_set=prediction_ids))
    in_order = in_order or (predictions.num_rows == questions.num_rows and not position.null_count
                            and np.array_equal(position.to_numpy(), np.arange(questions.num_rows)))
    joined = questions.drop_columns([name for name in ("line",) if name in questions.column_names])
    for name in predictions.column_names:
        if name not in ("id", "line"):
            column = predictions.column(name)
            joined = joined.append_column(name, column if in_order else column.take(position))
    missing = question_ids.filter(pc.is_null(position)).to_pylist()
    return joined, missing, _unanswered_ids(prediction_ids, question_ids, position)


def _unanswered_ids(prediction_ids: pa.Array, question_ids: pa.Array, position: pa.Array) -> list[str]:
    """The ids of prediction rows no question asks: of the rows the join took none from (usually few), those whose
    id no question has (a later row repeating a taken id is not one)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    taken = np.zeros(len(prediction_ids), bool)
    taken[position.drop_null().to_numpy()] = True
    left = prediction_ids.filter(pa.array(~taken))
    asked = question_ids.filter(pc.is_in(question_ids, value_set=left))
    return left.filter(pc.invert(pc.is_in(left, value_set=asked))).to_pylist()


def join_shard(questions: Rows, predictions: list[Rows], unmatched: list[str],
               shard_predictions: int) -> tuple[Rows, dict[str, Any]]:
    """join_predictions for one shard of a dataset split by row ranges: the shard's questions take their answer from
    `predictions` (this shard's prediction rows and its neighbours', in file order, already narrowed to this shard's
    question ids: a few missing rows shift later answers into the next shard); the first of two answers with one id
    wins, as in a whole-file load. `unmatched` and `shard_predictions` describe this shard's own prediction rows."""
    joined, info = join_predictions(questions, _first_answers(predictions))
    info["unmatched_predictions"] = unmatched
    info["counts"].update(predictions=shard_predictions, unmatched_predictions=len(unmatched))
    return joined, info


def _first_answers(predictions: list[Rows]) -> Rows:
    """The prediction rows in order, keeping the first row of each id (tables: concatenated; the Arrow join keeps
    the first itself)."""
    if predictions and not isinstance(predictions[0], dict):
        import pyarrow as pa

        return pa.concat_tables(predictions, promote_options="permissive")
    pool: Columns = {"id": [], "prediction": []}
    for columns in predictions:
        pool.update({name: [] for name in columns if name not in pool and name != "line"})
    seen: set = set()
    for columns in predictions:
        keys = zip(columns["id"], columns["sample"]) if "sample" in columns else columns["id"]
        for index, key in enumerate(keys):
            if key not in seen:
                seen.add(key)
                for name in pool:
                    pool[name].append(columns[name][index] if name in columns else None)
    return pool



def unscored_questions(questions: Rows, unscored: dict[str, str], answered: set[str]) -> dict[str, str]:
    """Id → cause of the questions not scored (stages/chat/outage.py): an id in `unscored` none of whose replies came
    (`answered`: the ids with one)."""
    return {qid: unscored[qid] for qid in map(str, column_values(questions, "id"))
            if qid in unscored and qid not in answered}


def rows_without(rows: Rows, ids: set[str]) -> Rows:
    """The rows whose id is not among `ids`."""
    keep = [str(rid) not in ids for rid in column_values(rows, "id")]
    if isinstance(rows, dict):
        return {name: [value for value, kept in zip(values, keep) if kept] for name, values in rows.items()}
    import pyarrow as pa

    return rows.filter(pa.array(keep, pa.bool_()))
