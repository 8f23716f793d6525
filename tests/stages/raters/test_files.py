"""Where raters' labels are found, and what B6's fingerprint takes of them: a labels file's bytes, of the report's own
annotation sheet only what people typed."""
import csv
import io

from upath import UPath

from stages.raters.files import is_preference_file, rater_digests, rater_files, read_rater_files
from stages.raters.sheet import ANNOTATION_CSV, annotation_csv

ROWS = {"m": {"id": ["s#0"], "scene": ["s"], "dialogue_index": ["0"], "context": ["c"], "expected": ["e"],
              "prediction": ["p"], "exact_match": [1.0]}}


def _typed(data: bytes, column: int, value: str) -> bytes:
    cells = list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))
    cells[1][column] = value
    out = io.StringIO(newline="")
    csv.writer(out, lineterminator="\r\n").writerows(cells)
    return out.getvalue().encode("utf-8-sig")


def test_the_sheet_and_every_labels_csv_are_raters_by_their_names(tmp_path):
    report, labels = UPath(tmp_path / "outputs/d"), UPath(tmp_path / "inputs/d/labels")
    labels.mkdir(parents=True)
    report.mkdir(parents=True)
    (labels / "bob.csv").write_text("id,model,winner\n")
    (labels / "alice.CSV").write_text("id,model,correct\n")
    (labels / "notes.txt").write_text("not labels")
    assert list(rater_files(report, labels)) == ["alice", "bob"]
    (report / ANNOTATION_CSV).write_bytes(annotation_csv(ROWS))
    found = rater_files(report, labels)
    assert list(found) == ["B6_human_annotation", "alice", "bob"]
    assert read_rater_files(found)["bob"][1] == b"id,model,winner\n"
    assert rater_files(report, UPath(tmp_path / "nowhere")) == {"B6_human_annotation": report / ANNOTATION_CSV}


def test_the_digest_changes_with_what_people_typed_not_with_what_b6_rewrites(tmp_path):
    report = UPath(tmp_path / "outputs/d")
    report.mkdir(parents=True)
    sheet = report / ANNOTATION_CSV
    sheet.write_bytes(annotation_csv(ROWS))
    assert rater_digests({"B6_human_annotation": sheet}, report) == {}  # as B6 wrote it: nobody's labels yet
    typed = _typed(annotation_csv(ROWS), 6, "yes")
    sheet.write_bytes(typed)
    first = rater_digests({"B6_human_annotation": sheet}, report)
    rewritten = {**ROWS, "m": {**ROWS["m"], "exact_match": [0.0]}}  # B6 rewrote an automatic column
    sheet.write_bytes(_typed(annotation_csv(rewritten), 6, "yes"))
    assert rater_digests({"B6_human_annotation": sheet}, report) == first
    sheet.write_bytes(_typed(annotation_csv(ROWS), 6, "no"))
    assert rater_digests({"B6_human_annotation": sheet}, report) != first


def test_a_preferences_file_is_told_by_its_header():
    assert is_preference_file("\ufeffid, model_a ,model_b,winner\n1,a,b,a\n".encode())
    assert not is_preference_file(b"id,model,correct\n")
    assert not is_preference_file(b"")
