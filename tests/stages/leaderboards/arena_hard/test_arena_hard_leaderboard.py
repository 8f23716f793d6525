"""Arena-Hard scored: a model's recorded games kept per question, two five-way verdicts (or null) each; its section
fits every model's battles together, with the interval of each score."""
import pytest

from stages.leaderboards.arena_hard.leaderboard import ArenaHard
from stages.leaderboards.board import SectionInputs, get_leaderboard
from tests.stages.leaderboards.scoring_double import ScoringDouble


def test_recorded_games_are_read_and_every_model_fitted_in_the_section(tmp_path):
    board = get_leaderboard("arena_hard")
    assert isinstance(board, ArenaHard) and board.recorded_value({"games": ["A>B", None]}) == (("A>B", None), None)
    assert board.recorded_value({"games": ["A>B"]})[1].endswith("are not two of A>>B, A>B, A=B, B>A, B>>A (or null)")
    games = {(str(i), 1): ("B>A", "A>B") if i % 4 else ("A>B", "B>A") for i in range(40)}
    scoring = ScoringDouble("m", {"name": "arena_hard", "baseline": "base"}, {}, {}, tmp_path,
                            recorded_verdicts=games)
    scored = board.score(scoring)
    assert scored.rows["id"][:2] == ["0", "1"] and scored.rows["game_1"][1] == "B>A"
    answers = {"base": {str(i): "base answer" for i in range(40)}, "m": {str(i): "model answer" for i in range(40)}}
    section = board.section(SectionInputs(board={"name": "arena_hard", "baseline": "base"}, judges=[],
                                          documents={"m": {}}, rows=lambda model: scored.rows, published={},
                                          answers=lambda: answers))
    assert list(section["models"]) == ["m", "base"]
    assert section["models"]["m"]["score"] == pytest.approx(75.0, abs=0.1)  # 60 of 80 battles won
    interval = section["intervals"]["m"]
    assert interval["low"] <= 75.0 <= interval["high"] and interval["n"] == 80
    assert board.item_values(scored.rows) is None
