"""A leaderboard's files written as a dataset folder: questions, every model's answers, the recorded verdicts and
the judge's prompts, a dataset.toml with [leaderboard], [judge] and provenance; the same import again writes
nothing, a url given since is kept, other questions stop it."""
import tomllib

from stages.harness.dataset_folder import write_planned
from stages.leaderboards.board_dataset import plan_leaderboard_import
from stages.leaderboards.board_files import LeaderboardFiles


def _found():
    return LeaderboardFiles(
        questions=[{"id": "1", "instruction": "Say hi."}], answers={"m": [{"id": "1", "output": "hi"}],
                                                                   "base": [{"id": "1", "output": "hello"}]},
        verdicts=[{"id": "1", "model": "m", "preference": 1.8}], judge="annotator", sources={"m": "m.json"},
        published={"m": {"win_rate": 40.0}}, files={"prompt.json": b"{}"},
        board={"name": "alpaca_eval", "baseline": "base", "verdicts": "verdicts/annotator.jsonl"},
        judge_table={"url": "", "model": "gpt-4"})


def test_a_leaderboard_folder_is_written_once_and_a_url_given_since_is_kept(tmp_path):
    plan = plan_leaderboard_import(_found(), "alpaca-eval", tmp_path)
    assert plan.problems == []
    write_planned(plan)
    assert sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file()) == [
        "dataset.toml", "predictions/base.jsonl", "predictions/m.jsonl", "prompt.json", "questions.jsonl",
        "verdicts/annotator.jsonl"]
    config = tomllib.loads((tmp_path / "dataset.toml").read_text())
    assert config["kind"] == "instruction" and config["leaderboard"]["baseline"] == "base"
    assert config["provenance"]["m"] == {"tool": "alpaca-eval", "file": "m.json", "published": {"win_rate": 40.0}}
    assert plan_leaderboard_import(_found(), "alpaca-eval", tmp_path).writes == {}
    (tmp_path / "dataset.toml").write_text((tmp_path / "dataset.toml").read_text().replace(
        'url = ""', 'url = "http://127.0.0.1:8000"'))
    assert plan_leaderboard_import(_found(), "alpaca-eval", tmp_path).writes == {}


def test_other_questions_or_the_readers_problems_stop_the_import(tmp_path):
    write_planned(plan_leaderboard_import(_found(), "alpaca-eval", tmp_path))
    other = _found()
    other.questions = [{"id": "1", "instruction": "Say bye."}]
    assert plan_leaderboard_import(other, "alpaca-eval", tmp_path).problems == [
        f"{tmp_path / 'questions.jsonl'}: holds other questions; import into another --dataset"]
    broken = _found()
    broken.problems = ["x.json: not JSON"]
    assert plan_leaderboard_import(broken, "alpaca-eval", tmp_path / "new").problems == ["x.json: not JSON"]
