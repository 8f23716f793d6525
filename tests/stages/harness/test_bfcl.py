"""bfcl-eval's own figures read from ROOT/score/<model>/: each score file's header line, also when it is the file's
only line (every item right)."""
import json

from stages.harness.bfcl import _scores


def test_a_score_file_of_its_header_alone_is_its_category_at_100_percent(tmp_path):
    folder = tmp_path / "score" / "m" / "non_live"
    folder.mkdir(parents=True)
    (folder / "BFCL_v4_simple_python_score.json").write_text(
        json.dumps({"accuracy": 1.0, "correct_count": 20, "total_count": 20}) + "\n")
    (folder / "BFCL_v4_multiple_score.json").write_text(
        json.dumps({"accuracy": 0.5, "correct_count": 1, "total_count": 2}) + "\n"
        + json.dumps({"id": "multiple_1", "valid": False, "error": ["wrong"]}) + "\n")
    assert _scores([tmp_path], "m") == {"simple_python.accuracy": 1.0, "multiple.accuracy": 0.5}
