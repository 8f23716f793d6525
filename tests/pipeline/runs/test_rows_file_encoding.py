"""A stage whose rows file is encoded as it computes (qa's B3, in slices) fails when that encoding fails: no
artifact of it counts as done."""
import threading

import pyarrow.parquet as pq

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

