"""Raters' work survives a regenerated sheet: labels and notes move to rows whose test case and texts are unchanged,
what has no row to go to is counted, evalpipe's own notes are not taken for a rater's."""
import csv
import io

from stages.raters.carry_over import carry_over_labels
from stages.raters.sheet import annotation_csv


def _sheet(predictions):
    n = len(predictions)
    return annotation_csv({"m": {"id": [f"s#{i}" for i in range(n)], "scene": ["s"] * n,
                                 "dialogue_index": [str(i) for i in range(n)], "context": ["c"] * n,
                                 "expected": ["e"] * n, "prediction": list(predictions), "exact_match": [0.0] * n}})


def _rows(data):
    return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"), newline="")))


def _typed(data, labels):
    rows = _rows(data)
    for index, (correct, note) in labels.items():
        rows[index].update({"content_correct": correct, "notes": note})
    out = io.StringIO(newline="")
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\r\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue().encode("utf-8-sig")


def test_labels_move_to_unchanged_rows_and_the_rest_are_counted():
    previous = _typed(_sheet(["a", "b", "=c"]), {0: ("1", "good"), 1: ("0", ""), 2: ("是", "")})
    merged = carry_over_labels(previous, _sheet(["a", "B changed", "=c", "new"]))
    rows = _rows(merged.data)
    assert [(r["content_correct"], r["notes"]) for r in rows] == [("1", "good"), ("", ""), ("是", ""), ("", "")]
    assert (merged.carried, merged.left_behind) == (2, 1)
    assert rows[2]["prediction"] == "'=c"  # still guarded against spreadsheet formulas


def test_evalpipes_own_note_is_not_a_raters_work():
    previous = _sheet(["a", None])
    assert "evalpipe: no prediction" in previous.decode("utf-8-sig")
    merged = carry_over_labels(previous, _sheet(["a", None]))
    assert (merged.carried, merged.left_behind) == (0, 0)
