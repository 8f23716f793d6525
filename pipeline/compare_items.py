"""compare.html's items read from the two runs' artifacts: the question and gold of each flipped item (B1) and each
run's replies to it (B2) with how its kind's renderer shows each (B4, and the B3 columns the renderer reads), looked
up by id for the flipped items only."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from stages.io.artifacts import artifact_paths, read_artifact_json, read_rows_with_ids
from stages.kinds import get_kind
from stages.report.explorer import display_text, reply_shown
from stages.report.renderers import header_parameters, renderer_for

if TYPE_CHECKING:
    from upath import UPath


def flipped_texts(flips: list[dict[str, Any]], before: UPath, after: UPath,
                  kinds: dict[str, str]) -> list[dict[str, Any]]:
    """Each flipped item with its question, gold and both runs' replies (a list: one per sample, in sample order, each
    its answer and reasoning as reply_shown gives them, and where its B4 row is found its status, reading and the
    fields of its kind's renderer — `kinds`: dataset → kind name)."""
    ids: dict[tuple[str, str], list[str]] = {}
    for flip in flips:
        ids.setdefault((flip["dataset"], flip["model"]), []).append(flip["id"])
    questions = {dataset: _rows(after, "B1", dataset, None, wanted, ("question", "golds"))
                 for dataset, wanted in _by_dataset(ids).items()}
    replies = {(run, dataset, model): _replies(folder, dataset, model, wanted, kinds[dataset])
               for (dataset, model), wanted in ids.items() for run, folder in (("a", before), ("b", after))}
    shown = []
    for flip in flips:
        dataset, model, item = flip["dataset"], flip["model"], flip["id"]
        question = questions[dataset].get(item, {})
        shown.append({**flip, "question": display_text(question.get("question")),
                      "gold": display_text(renderer_for(kinds[dataset]).gold(question.get("golds"))),
                      "a": replies[("a", dataset, model)].get(item, []),
                      "b": replies[("b", dataset, model)].get(item, [])})
    return shown


def _by_dataset(ids: dict[tuple[str, str], list[str]]) -> dict[str, list[str]]:
    found: dict[str, set[str]] = {}
    for (dataset, _), wanted in ids.items():
        found.setdefault(dataset, set()).update(wanted)
    return {dataset: sorted(wanted) for dataset, wanted in found.items()}


def _rows(folder: UPath, stage: str, dataset: str, model: str | None, wanted: list[str],
          columns: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """id → its first row's `columns` (those the artifact has), over every shard of a stage's artifact."""
    found: dict[str, dict[str, Any]] = {}
    for row in _matching(folder, stage, dataset, model, wanted, columns):
        found.setdefault(str(row["id"]), row)
    return found


def _replies(folder: UPath, dataset: str, model: str, wanted: list[str], kind: str) -> dict[str, list[dict[str, Any]]]:
    """id → the model's replies (as the explorer shows them: the answer, its reasoning apart, its status, reading and
    renderer fields; in sample order; an (id, sample)'s first row answers it)."""
    found: dict[str, dict[Any, dict[str, Any]]] = {}
    views = _views(folder, dataset, model, wanted, kind)
    for row in _matching(folder, "B2", dataset, model, wanted, ("prediction", "sample")):
        key = (str(row["id"]), row.get("sample"))
        found.setdefault(key[0], {}).setdefault(key[1], {**reply_shown(row.get("prediction")), **views.get(key, {})})
    return {item: [texts[sample] for sample in sorted(texts, key=lambda s: (s is None, s or 0))]
            for item, texts in found.items()}


def _views(folder: UPath, dataset: str, model: str, wanted: list[str],
           kind: str) -> dict[tuple[str, Any], dict[str, Any]]:
    """(id, sample) → its reply's status, reading and renderer fields, from its B4 row and the B3 columns the
    renderer reads (an (id, sample)'s first row of each)."""
    renderer, judged = renderer_for(kind), get_kind(kind)
    normalized: dict[tuple[str, Any], dict[str, Any]] = {}
    for row in _matching(folder, "B3", dataset, model, wanted, ("sample", *renderer.normalized_columns)):
        normalized.setdefault((str(row["id"]), row.get("sample")), row)
    found: dict[tuple[str, Any], dict[str, Any]] = {}
    for row in _matching(folder, "B4", dataset, model, wanted, None, renderer.match_parameters):
        key = (str(row["id"]), row.get("sample"))
        if key not in found:
            status, reading = judged.item_view(row)
            found[key] = {"status": status, "reading": reading,
                          "fields": renderer.fields({**normalized.get(key, normalized.get((key[0], None), {})), **row})}
    return found


def _matching(folder: UPath, stage: str, dataset: str, model: str | None, wanted: list[str],
              columns: tuple[str, ...] | None, parameters: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """The rows with these ids of every shard of a stage's artifact that exists (a run without it: none), with the
    `columns` it has (None: all of them) and the stage's `parameters` named (its header's) beside them."""
    rows = []
    for path in artifact_paths(folder, stage, dataset, model):
        document = read_artifact_json(path)
        if document is None:
            continue
        named = document.get("columns", ())
        present = ["id", *(name for name in (named if columns is None else columns) if name in named and name != "id")]
        named_parameters = header_parameters(document, parameters)
        rows += [{**named_parameters, **row}
                 for row in read_rows_with_ids(path, wanted, present, document).to_pylist()]
    return rows
