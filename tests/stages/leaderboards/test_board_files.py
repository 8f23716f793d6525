"""A leaderboard folder's JSON-lines files: records read leniently, a line that is not a JSON object a problem."""
from stages.leaderboards.board_files import LeaderboardFiles, jsonl, read_json_lines


def test_records_or_a_problem_naming_the_line(tmp_path):
    found = LeaderboardFiles()
    path = tmp_path / "question.jsonl"
    path.write_bytes(jsonl([{"question_id": 81, "turns": ["a", "b"]}]) + b'\n{"question_id": 82, "score": NaN}\n')
    records = read_json_lines(path, found)
    assert records[0] == {"question_id": 81, "turns": ["a", "b"]} and records[1]["score"] != records[1]["score"]
    assert read_json_lines(tmp_path / "missing.jsonl", found) is None and found.problems == []
    path.write_text('{"question_id": 81}\n[1, 2]\n')
    assert read_json_lines(path, found) is None
    assert found.problems == [f"{path}: line 2 is not a JSON object"]
