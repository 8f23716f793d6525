"""FEVER's evidence columns on Arrow, against values worked out by hand from the official scorer's rules
(max_evidence = 5: only the first five predicted sentences count; a group is found when all its sentences are among
them; precision counts every predicted sentence, duplicates too, against the gold sentences that name a line)."""
import pyarrow as pa
import pytest

from stages.kinds.fact_verification import fever
from stages.kinds.fact_verification.fever import fever_columns

ROWS = [  # (gold label, gold evidence groups, predicted sentences, label right)
    ("T", [["P\t1", "P\t2"], ["Q\t0"]], ["Q\t0", "X\t3", "P\t1", "P\t2", "Y\t1", "P\t3"], True),
    ("F", [["A\t1", "B\t2"]], ["A\t1", "A\t1"], True),
    ("uncertain", [["N\t0"]], ["N\t0"], False),
    ("T", [], None, True),
    ("T", [["Page\t"]], ["Page\t"], True),
    ("T", None, ["Z\t1"], True),
    ("T", [[], ["C\t1"]], [], False),
    ("F", [["A\t1"], ["B\t1"]], ["X\t1", "X\t2", "X\t3", "X\t4", "X\t5", "B\t1"], True),  # B 1 is sixth: not seen
]
EXPECTED = {  # per row: evidence_group, strict, evidence_precision, evidence_recall
    "evidence_group": [0, None, None, None, 0, None, 0, None],
    "strict": [True, False, False, False, True, False, False, False],
    "evidence_precision": [0.6, 1.0, None, 1.0, 0.0, 0.0, 1.0, 0.0],
    "evidence_recall": [1.0, 0.0, None, 1.0, 1.0, 1.0, 1.0, 0.0],
}


@pytest.mark.parametrize("batch_rows", [200_000, 3])
def test_fever_columns_follow_the_official_rules_row_by_row(monkeypatch, batch_rows):
    monkeypatch.setattr(fever, "BATCH_ROWS", batch_rows)
    gold, evidence, predicted, correct = zip(*ROWS)
    columns = fever_columns(pa.array(gold), pa.array(evidence, pa.list_(pa.list_(pa.string()))),
                            pa.chunked_array([pa.array(predicted, pa.list_(pa.string()))]), pa.array(correct))
    for name, expected in EXPECTED.items():
        assert columns[name].to_pylist() == expected, name


def test_no_predicted_evidence_column_reads_as_nothing_predicted():
    columns = fever_columns(pa.array(["T", "F"]), pa.array([[["A\t1"]], [["B\t2"]]]), pa.nulls(2),
                            pa.array([True, True]))
    assert columns["evidence_precision"].to_pylist() == [1.0, 1.0]
    assert columns["strict"].to_pylist() == [False, False]


def test_evidence_sums_add_in_row_order_as_the_official_scorers_plus_equals():
    # 1e16 + 1 rounds back to 1e16, so adding one at a time gives 1.0; a compensated or exact sum would give 2.0
    column = pa.chunked_array([[1e16, None, 1.0], [-1e16, 1.0]])
    assert fever.sum_in_row_order(column) == 1.0
    assert fever.sum_in_row_order(pa.chunked_array([[None]], pa.float64())) == 0.0
    matched = pa.table({"strict": [True, None, False], "evidence_precision": [0.5, None, 0.25],
                        "evidence_recall": [1.0, None, 0.0]})
    assert fever.fever_stats(matched) == {"strict": 1, "evidence_rows": 2, "precision": 0.75, "recall": 1.0}
