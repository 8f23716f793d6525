"""math-verify's warm parent starts as a run that computes a math B4 in this process begins (before B1 loads), is given
B1's golds and B3's final answers to parse ahead, is never started by a run with no math B4 to compute, and ends with
the run's process, its checkers with it."""
import pytest

from pipeline import task_base, tasks
from stages.kinds.math import checker_parent
from stages.kinds.math import kind as math_kind
from tests.pipeline.workspace import run, write_jsonl

pytest.importorskip("math_verify")


@pytest.fixture
def events(monkeypatch) -> list:
    """What happened, in order: ("parent", texts given) for each start_checker_parent call, (stage,) as each stage
    begins."""
    found: list = []
    real_start, real_run = math_kind.start_checker_parent, task_base.StageTask.run

    def start(texts: list[str]) -> None:
        found.append(("parent", texts))
        real_start(texts)

    def stage(task) -> None:
        found.append((task.stage,))
        real_run(task)

    monkeypatch.setattr(math_kind, "start_checker_parent", start)
    monkeypatch.setattr(task_base.StageTask, "run", stage)
    monkeypatch.setattr(math_kind, "PAIRS_PER_CHECKER", 1)  # B1's and B3's rows warm it however few
    checker_parent.stop_checker_parent()
    yield found
    checker_parent.stop_checker_parent()


def _math_dataset(folder) -> None:
    write_jsonl(folder / "questions.jsonl", [{"id": "1", "question": "Half?", "answer": "\\frac{1}{2}"},
                                             {"id": "2", "question": "3 + 4?", "answer": "7"}])
    write_jsonl(folder / "predictions" / "m.jsonl", [{"id": "1", "prediction": "\\boxed{0.5}"},
                                                     {"id": "2", "prediction": "So \\boxed{8}."}])
    (folder / "dataset.toml").write_text('kind = "math"\n')


def test_a_math_run_starts_the_parent_before_b1_gives_it_b4s_texts_and_a_rerun_with_b4_done_starts_nothing(
        tmp_path, events):
    _math_dataset(tmp_path / "inputs" / "half")
    assert run(tmp_path) == 0
    assert events[:2] in ([("parent", []), ("B1",)], [("parent", []), ("B2",)])  # before any stage (B2 gives nothing)
    assert [texts for event, *texts in events if event == "parent" and texts[0]] == [
        [["\\frac{1}{2}", "7"]], [["\\frac{1}{2}", "7", "0.5", "8"]]]  # B1's golds, then B3's golds and answers
    assert checker_parent._PARENTS  # kept for the process's next run, ended at exit
    checker_parent.stop_checker_parent()
    events.clear()
    assert run(tmp_path) == 0
    assert events == [] and not checker_parent._PARENTS


def test_a_b4_whose_state_cannot_be_told_as_the_run_begins_starts_nothing_early_and_fails_nothing(
        tmp_path, events, monkeypatch):
    _math_dataset(tmp_path / "inputs" / "half")
    real_complete, asked = tasks.B4Match.complete, []

    def complete(task) -> bool:
        asked.append(task)
        if len(asked) == 1:
            raise OSError("the outputs' storage did not answer")
        return real_complete(task)

    monkeypatch.setattr(tasks.B4Match, "complete", complete)
    assert run(tmp_path) == 0
    assert events[0] != ("parent", []) and ("B4",) in events


def test_a_run_with_no_math_dataset_never_starts_the_parent(tmp_path, events, monkeypatch):
    folder = tmp_path / "inputs" / "plain"
    write_jsonl(folder / "questions.jsonl", [{"id": "1", "question": "Capital of France?", "answer": "Paris"}])
    write_jsonl(folder / "predictions" / "m.jsonl", [{"id": "1", "prediction": "Paris"}])
    started: list = []
    monkeypatch.setattr(checker_parent.CheckerParent, "__init__", lambda self: started.append(self))
    assert run(tmp_path) == 0
    assert started == [] and [event for event in events if event[0] == "parent"] == []
    assert ("B4",) in events


def test_a_math_run_on_several_workers_leaves_the_parent_to_the_process_b4_runs_in(tmp_path, events):
    _math_dataset(tmp_path / "inputs" / "half")
    assert run(tmp_path, "--workers", "2") == 0
    assert ("parent", []) not in events


ORPHANS = """
import ctypes, os, subprocess, sys, time
ctypes.CDLL(None).prctl(36, 1)  # PR_SET_CHILD_SUBREAPER: whatever the run leaves behind becomes this process's child
run = subprocess.run([sys.executable, "-m", "pipeline", "run", "--inputs", sys.argv[1], "--outputs", sys.argv[2]],
                     stdout=subprocess.DEVNULL)
time.sleep(0.5)  # an orphan, had there been one, is reparented here by now
left = []
while True:
    try:
        pid, _ = os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        break
    if pid == 0:  # alive: read its command line, then end it
        for name in os.listdir("/proc"):
            if name.isdigit() and open(f"/proc/{name}/stat").read().rsplit(")", 1)[1].split()[1] == str(os.getpid()):
                left.append(open(f"/proc/{name}/cmdline").read().replace(chr(0), " "))
                os.kill(int(name), 9)
        os.wait()
        continue
    left.append(f"ended after the run: {pid}")
print(run.returncode, left)
"""


def test_a_whole_math_run_leaves_no_process_behind(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    _math_dataset(tmp_path / "inputs" / "half")
    root = Path(__file__).resolve().parents[3]
    found = subprocess.run([sys.executable, "-c", ORPHANS, str(tmp_path / "inputs"), str(tmp_path / "outputs")],
                           cwd=root, capture_output=True, text=True, timeout=300)
    assert found.stdout.split(None, 1) == ["0", "[]\n"], found.stdout + found.stderr[-2000:]
    assert (tmp_path / "outputs" / "half" / "m" / "B4_matches.json").exists()  # B4 ran: the parent and a checker did
