"""τ²-bench's published board read for a domain (the shared submissions: GPT-4.1's published retail figures, tau2
version and user simulator as its submission.json states them); a submission that cannot be read is set aside with
its file and reason, the rest read; a run's own pass^k gets the board's caveat when it has fewer than 4 trials or
another user simulator than gpt-4.1."""
import json

import pytest

from stages.kinds.tau2.leaderboard import CAVEAT, read_board, run_caveat, run_user, user_caveat
from tests.stages.kinds.tau2.trajectories import DOMAINS

BOARD = DOMAINS.parent / "leaderboard"


@pytest.mark.skipif(not BOARD.is_dir(), reason="the shared tau2 leaderboard is not here")
def test_the_shared_board_gives_gpt_4_1s_published_retail_figures():
    board = read_board(BOARD, "retail")
    entries = {entry["submission"]: entry for entry in board["submissions"]}
    gpt = entries["gpt-4-1_openai_2024-06-20"]
    assert gpt["pass_hat_k"] == {"1": 0.74, "2": 0.642, "3": 0.581, "4": 0.523}
    assert (gpt["tau2_version"], gpt["user_simulator"], gpt["comparable_user"]) == ("0.1.3", "gpt-4.1-2025-04-14",
                                                                                  True)
    assert not board["set_aside"] and board["caveat"] == CAVEAT
    firsts = [entry["pass_hat_k"]["1"] for entry in board["submissions"]]
    assert firsts == sorted(firsts, reverse=True)
    airline = {e["submission"]: e for e in read_board(BOARD, "airline")["submissions"]}
    assert airline["gpt-4-1_openai_2024-06-20"]["pass_hat_k"]["1"] == 0.56


def _submission(folder, name, text):
    (folder / name).mkdir()
    (folder / name / "submission.json").write_text(text)


def test_a_broken_submission_is_set_aside_with_its_file_and_reason_the_rest_read(tmp_path):
    good = {"model_name": "A", "results": {"retail": {"pass_1": 50.0, "pass_2": 25.0}},
            "methodology": {"tau2_bench_version": "1.0.1", "user_simulator": "gpt-5.2"}}
    _submission(tmp_path, "a", json.dumps(good))
    _submission(tmp_path, "b", "{not json")
    _submission(tmp_path, "c", json.dumps({"results": {"retail": {"pass_1": 250.0}}}))
    _submission(tmp_path, "d", json.dumps({"results": {"airline": {"pass_1": 20.0}}}))
    (tmp_path / "manifest.json").write_text(json.dumps({"submissions": ["a", "b", "c", "d", "e"]}))
    board = read_board(tmp_path, "retail")
    assert [(e["submission"], e["pass_hat_k"], e["comparable_user"]) for e in board["submissions"]] == [
        ("a", {"1": 0.5, "2": 0.25}, False)]
    assert [line.split(":")[0] for line in board["set_aside"]] == [str(tmp_path / x / "submission.json")
                                                                   for x in "bce"]
    assert "outside 0…100" in board["set_aside"][1]
    assert read_board(tmp_path / "nowhere", "retail")["set_aside"][0].startswith(str(tmp_path / "nowhere"))


def test_a_run_with_fewer_than_4_trials_gets_the_caveat():
    assert run_caveat({"pass_hat_k": {"1": 0.5, "2": 0.25}}) == "pass^k up to k = 2 only (the board's: 4 trials)"
    assert run_caveat({"pass_hat_k": {str(k): 0.5 for k in range(1, 5)}}) is None


def test_the_runs_user_simulator_is_its_user_model_and_another_than_gpt_4_1_gets_the_caveat():
    assert run_user({"answers": 3, "user": {"answers": 4, "model": "qwen3-8b"}}) == "qwen3-8b"
    assert run_user(None) is None and run_user({"answers": 3}) is None
    assert user_caveat("qwen3-8b") == "user simulator qwen3-8b, not the board's gpt-4.1: not comparable"
    assert user_caveat("gpt-4.1-mini") == "user simulator gpt-4.1-mini, not the board's gpt-4.1: not comparable"
    assert user_caveat("gpt-4.1") is None and user_caveat("gpt-4.1-2025-04-14") is None
    assert user_caveat(None) == "user simulator not recorded (trials not asked live): the board's is gpt-4.1"
