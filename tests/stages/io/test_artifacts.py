"""stages.read_artifact: any stage's rows as a DataFrame, the same whether they sit inline or in Parquet."""
import pandas as pd
import pytest

from stages import UsageError, read_artifact
from stages.io.artifacts import INLINE_ROW_LIMIT, artifact_path, read_artifact_json, write_artifact
from stages.io.rows_handoff import forget


def _write(outputs, stage, rows, model="m"):
    columns = {"id": [f"q{i}" for i in range(rows)], "f1": [i / rows for i in range(rows)],
               "golds": [["a", f"b{i}"] for i in range(rows)]}
    header = {"stage": stage, "fingerprint": "ab" * 32, "counts": {"rows": rows}}
    path = artifact_path(outputs, stage, "d", model)
    write_artifact(path, header, columns, {"rejects": []})
    return path, columns


@pytest.mark.parametrize("rows", [3, INLINE_ROW_LIMIT + 5])
def test_rows_come_back_as_a_dataframe_with_the_header(tmp_path, rows):
    path, columns = _write(tmp_path, "B4", rows)
    assert ("rows_file" in read_artifact_json(path)) == (rows > INLINE_ROW_LIMIT)
    frame = read_artifact(tmp_path, "B4", "d", "m")
    assert isinstance(frame, pd.DataFrame) and list(frame.columns) == ["id", "f1", "golds"]
    assert frame["id"].tolist() == columns["id"] and frame["f1"].tolist() == columns["f1"]
    assert [list(g) for g in frame["golds"]] == columns["golds"]
    assert frame.attrs["header"]["counts"] == {"rows": rows} and frame.attrs["header"]["stage"] == "B4"


def test_b6_gives_one_row_per_model_with_dotted_metrics(tmp_path):
    report = {"dataset": "d", "kind": "qa", "models": {
        "a": {"rows": 4, "f1": 0.5, "labels": {"correct": 2}}, "b": {"rows": 4, "f1": 0.25, "labels": {"correct": 1}}}}
    write_artifact(artifact_path(tmp_path, "B6", "d"), {"stage": "B6", "fingerprint": "0" * 64}, None,
                   {"report": report})
    frame = read_artifact(tmp_path, "b6", "d")
    assert frame.set_index("model")["labels.correct"].to_dict() == {"a": 2, "b": 1}
    assert frame.attrs["report"]["kind"] == "qa"


def test_missing_artifacts_and_bad_names_say_what_is_wrong(tmp_path):
    with pytest.raises(FileNotFoundError, match="evalpipe run"):
        read_artifact(tmp_path, "B1", "d")
    with pytest.raises(UsageError, match="unknown stage"):
        read_artifact(tmp_path, "B9", "d")
    with pytest.raises(UsageError, match="per model"):
        read_artifact(tmp_path, "B3", "d")


def test_a_rows_file_dictionary_encodes_all_but_the_row_keys(tmp_path):
    import pyarrow.parquet as pq

    path, _ = _write(tmp_path, "B4", INLINE_ROW_LIMIT + 5)
    metadata = pq.ParquetFile(path.with_name(read_artifact_json(path)["rows_file"])).metadata
    encoded = {metadata.schema.column(i).path: any("DICTIONARY" in encoding
                                                   for encoding in metadata.row_group(0).column(i).encodings)
               for i in range(metadata.num_columns)}
    assert encoded == {"id": False, "f1": True, "golds.list.element": True}


def test_texts_that_nearly_all_differ_are_written_without_a_dictionary_and_read_back_the_same(tmp_path):
    import pyarrow.parquet as pq

    rows = INLINE_ROW_LIMIT + 500
    columns = {"id": [f"q{i}" for i in range(rows)], "question": [f"question {i}" for i in range(rows)],
               "label": ["yes" if i % 3 else "no" for i in range(rows)],
               "replies": [[f"reply {i}", f"again {i}"] for i in range(rows)],
               "golds": [["paris", "london", f"city {i % 50}"] for i in range(rows)]}
    path = artifact_path(tmp_path, "B3", "d", "m")
    write_artifact(path, {"stage": "B3", "fingerprint": "12" * 32}, columns, {})
    sidecar = path.with_name(read_artifact_json(path)["rows_file"])
    metadata = pq.ParquetFile(sidecar).metadata
    encoded = {metadata.schema.column(i).path: any("DICTIONARY" in encoding
                                                   for encoding in metadata.row_group(0).column(i).encodings)
               for i in range(metadata.num_columns)}
    assert encoded == {"id": False, "question": False, "label": True, "replies.list.element": False,
                       "golds.list.element": True}
    forget(sidecar)  # read from the file, as another process would
    assert read_artifact(tmp_path, "B3", "d", "m").map(
        lambda value: value if isinstance(value, str) else list(value)).to_dict("list") == columns


def test_a_rows_file_keeps_min_and_max_for_row_keys_and_numbers_not_for_text(tmp_path):
    import pyarrow.parquet as pq

    path, columns = _write(tmp_path, "B4", INLINE_ROW_LIMIT + 5)
    group = pq.ParquetFile(path.with_name(read_artifact_json(path)["rows_file"])).metadata.row_group(0)
    kept = {group.column(i).path_in_schema: group.column(i).is_stats_set for i in range(group.num_columns)}
    assert kept == {"id": True, "f1": True, "golds.list.element": False}
    assert (group.column(1).statistics.min, group.column(1).statistics.max) == (0.0, max(columns["f1"]))


def test_a_column_whose_dictionary_passes_a_mebibyte_stays_dictionary_encoded(tmp_path):
    import pyarrow.parquet as pq

    texts = [f"option text number {i:06d} of the pool" for i in range(40_000)]  # 38 bytes each: a 1.6 MB dictionary
    rows = 131_072
    path = artifact_path(tmp_path, "B3", "d", "m")
    write_artifact(path, {"stage": "B3", "fingerprint": "cd" * 32}, {"option": [texts[i * 7 % 40_000]
                                                                               for i in range(rows)]}, {})
    chunk = pq.ParquetFile(path.with_name(read_artifact_json(path)["rows_file"])).metadata.row_group(0).column(0)
    plain_bytes = rows * (38 + 4)  # each value written plainly: its length prefix and its bytes
    assert chunk.total_uncompressed_size < 40_000 * (38 + 4) + rows * 4 < plain_bytes


def test_lists_of_dictionary_texts_come_back_when_the_dictionary_changes_between_row_groups(tmp_path, monkeypatch):
    import pyarrow as pa

    from stages.io import artifacts

    monkeypatch.setattr(artifacts, "ROW_GROUP_ROWS", 2500)
    halves = [pa.array([[f"{half} option {i % 7}", f"{half} option {i % 5}"] for i in range(2500)],
                       pa.list_(pa.dictionary(pa.int32(), pa.string()))) for half in ("first", "second")]
    table = pa.table({"id": [f"q{i}" for i in range(5000)], "options": pa.chunked_array(halves)})
    path = artifact_path(tmp_path, "B1", "d")
    write_artifact(path, {"stage": "B1", "fingerprint": "ef" * 32}, table, {})
    forget(path.with_name(read_artifact_json(path)["rows_file"]))  # read from the file, as another process would
    read = artifacts.read_table(path)  # read whole, Arrow says "Nested data conversions not implemented for chunked …"
    assert read.column("options").to_pylist() == table.column("options").to_pylist()
    assert read.column("id").to_pylist() == table.column("id").to_pylist()
