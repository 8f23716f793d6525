"""A stage whose rows file is encoded as it computes (qa's B3, in slices) fails when that encoding fails: no
artifact of it counts as done."""
import json
import threading

import pyarrow.parquet as pq

from stages.io import artifacts
from stages.io.artifacts import ROW_GROUP_ROWS, read_artifact_json
from tests.pipeline.workspace import qa_dataset, run


def test_a_stage_whose_rows_file_encoding_fails_fails_without_its_artifact(tmp_path, monkeypatch):
    """qa's B3 normalizes in slices: its rows file encoder failing in its thread fails B3 (exit code not 0), leaves no
    B3 artifact, and the other stages before it are whole."""
    qa_dataset(tmp_path, ROW_GROUP_ROWS * 2 + 10)
    original = pq.ParquetWriter.write_table

    def failing_in_the_encoder(self, table, *args, **kwargs):
        if threading.current_thread().name == "rows-file-encoder" and "golds_norm" in table.column_names:
            raise OSError("disk gone while encoding")
        return original(self, table, *args, **kwargs)

    monkeypatch.setattr(pq.ParquetWriter, "write_table", failing_in_the_encoder)
    assert run(tmp_path) != 0
    assert not [thread for thread in threading.enumerate() if thread.name == "rows-file-encoder"]
    outputs = tmp_path / "outputs" / "big_qa"
    assert read_artifact_json(outputs / "B1_questions.json")["row_count"] == ROW_GROUP_ROWS * 2 + 10
    assert not (outputs / "m" / "B3_normalized.json").exists()
    assert not list((outputs / "m").glob("B3_normalized.*"))



def test_rows_files_encoded_as_loaded_hold_the_rows_kept(tmp_path, monkeypatch):
    """B1 and B2 encode their blocks as they are read: the rows files hold every row, in row groups of
    ROW_GROUP_ROWS; a repeated id (set aside after the blocks were encoded) is not in B1's rows file, which is then
    encoded from the rows kept."""
    encoded_after = []  # the columns of each table encoded after its stage computed it
    monkeypatch.setattr(artifacts, "_parquet_bytes",
                        lambda table, encode=artifacts._parquet_bytes: encoded_after.append(table.column_names)
                        or encode(table))
    rows = ROW_GROUP_ROWS + 3000
    inputs = qa_dataset(tmp_path, rows)
    with open(inputs / "big_qa" / "questions.jsonl", "a") as questions:
        questions.write(json.dumps({"id": "q7", "question": "again?", "answers": ["x"]}) + "\n")
    assert run(tmp_path) == 0
    outputs = tmp_path / "outputs" / "big_qa"
    for artifact, count in (("B1_questions.json", rows), ("m/B2_predictions.json", rows)):
        document = read_artifact_json(outputs / artifact)
        rows_file = pq.ParquetFile((outputs / artifact).parent / document["rows_file"])
        assert document["row_count"] == rows_file.metadata.num_rows == count
        assert [rows_file.metadata.row_group(g).num_rows for g in range(rows_file.num_row_groups)] == \
            [ROW_GROUP_ROWS, 3000]
        ids = rows_file.read(columns=["id"]).column("id").to_pylist()
        assert ids == [f"q{i}" for i in range(rows)]
    assert read_artifact_json(outputs / "B1_questions.json")["columns"] in encoded_after  # the rows kept, encoded
    for artifact in ("m/B2_predictions.json", "m/B3_normalized.json", "m/B4_matches.json"):  # encoded as they came
        assert read_artifact_json(outputs / artifact)["columns"] not in encoded_after
    assert [reject["reason"] for reject in read_artifact_json(outputs / "B1_questions.json")["rejects"]] == \
        ["duplicate id 'q7' (first seen at line 8)"]
