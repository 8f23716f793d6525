"""The annotation sheet: UTF-8 with BOM, seed 003's columns, formulas neutralized; raters' yes / no cells read back."""
import csv
import io

import pytest

from stages.raters.sheet import annotation_csv, neutralize_formula, parse_human_label, read_annotation_csv


def test_csv_has_bom_seed_columns_and_neutralized_formulas():
    rows = {"m": {"id": ["s#0"], "scene": ["=cmd"], "dialogue_index": ["0"], "context": ["@SUM(A1)"],
                  "expected": ["+1"], "prediction": ["-2"], "exact_match": [0.0]}}
    data = annotation_csv(rows)
    assert data.startswith(b"\xef\xbb\xbf")
    parsed = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert parsed[0] == ["scene", "dialogue_index", "context", "expected_response", "prediction", "exact_match",
                         "content_correct", "style_consistent", "notes", "model"]
    assert parsed[1][:5] == ["'=cmd", "0", "'@SUM(A1)", "'+1", "'-2"]
    assert neutralize_formula("\tx") == "'\tx" and neutralize_formula("ok = fine") == "ok = fine"


def test_yes_no_cells_in_many_spellings():
    assert [parse_human_label(t) for t in ("1", "是", "Yes", " ", "✗", "0")] == [True, True, True, None, False, False]
    with pytest.raises(ValueError):
        parse_human_label("maybe")


def test_a_filled_in_sheet_reads_back_with_its_unreadable_rows_set_aside(tmp_path):
    rows = {"m": {"id": ["s#0", "s#1", "s#2"], "scene": ["=s", "s", "s"], "dialogue_index": ["0", "1", "2"],
                  "context": ["c"] * 3, "expected": ["e"] * 3, "prediction": ["p", None, "p"], "exact_match": [1.0] * 3}}
    text = annotation_csv(rows).decode("utf-8-sig").splitlines()
    cells = [next(csv.reader([line])) for line in text]
    cells[1][6], cells[2][7], cells[3][6] = "是", "no", "perhaps"
    sheet = tmp_path / "B6_human_annotation.csv"
    out = io.StringIO(newline="")
    csv.writer(out, lineterminator="\r\n").writerows(cells)
    sheet.write_bytes(out.getvalue().encode("utf-8-sig"))
    read, rejects = read_annotation_csv(sheet)
    assert [(r["scene"], r["dialogue_index"], r["content_correct"], r["style_consistent"]) for r in read] == [
        ("=s", "0", True, None), ("s", "1", None, False)]  # the formula guard taken off again
    assert [(r.line, r.reason) for r in rejects] == [(4, "cannot read 'perhaps' as a yes/no label")]
