"""Progress: a bar on a terminal, plain lines for cron, nothing for short loops; stages report through it."""
import io
import re
from functools import partial

from pipeline import cli
from pipeline.progress import ProgressDisplay, set_progress_context
from stages import Progress, set_progress_sink, track
from tests.pipeline.workspace import DEMO_INPUTS

INPUTS = DEMO_INPUTS


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def _loop(display, clock, items, seconds_each):
    previous = set_progress_sink(display)
    try:
        with Progress("scoring", items) as progress:
            for _ in range(items):
                clock.now += seconds_each
                progress.advance()
    finally:
        set_progress_sink(previous)


def _lines(stream):
    return [re.sub(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d ", "", line) for line in stream.getvalue().splitlines()]


def test_log_lines_for_a_long_loop_when_not_on_a_terminal():
    clock, stream = Clock(), io.StringIO()
    set_progress_context("B5 d/m")
    _loop(ProgressDisplay(stream, terminal=False, delay=10, interval=30, clock=clock), clock, 25, 4.0)
    set_progress_context("")
    # an item every 4 s: a first line once 10 s have passed (item 3, at 12 s), then at 44 s and 76 s, then the total
    assert _lines(stream) == [
        "evalpipe B5 d/m scoring: 3/25 (12%), 0.2/s",
        "evalpipe B5 d/m scoring: 11/25 (44%), 0.2/s",
        "evalpipe B5 d/m scoring: 19/25 (76%), 0.2/s",
        "evalpipe B5 d/m scoring: done 25/25 in 100.0s (0.2/s)",
    ]


def test_short_loops_say_nothing():
    clock, stream = Clock(), io.StringIO()
    _loop(ProgressDisplay(stream, terminal=False, delay=10, interval=30, clock=clock), clock, 5, 1.0)
    _loop(ProgressDisplay(stream, terminal=True, delay=0.5, interval=0.1, clock=clock), clock, 4, 0.1)
    assert stream.getvalue() == ""


def test_bar_is_redrawn_in_place_on_a_terminal():
    clock, stream = Clock(), io.StringIO()
    _loop(ProgressDisplay(stream, terminal=True, delay=0.5, interval=0.1, clock=clock), clock, 10, 0.25)
    out = stream.getvalue()
    frames = out.split("\r\x1b[K")[1:]
    assert len(frames) == 10 and "\n" not in "".join(frames[:-1]) and frames[-1].endswith("\n")
    assert frames[0].startswith("scoring |" + "█" * 4 + "░" * 20 + "|  20% 2/10 · 4.0/s · ETA 2s")
    assert frames[-1].startswith("scoring |" + "█" * 24 + "| 100% 10/10 · 4.0/s")


def test_progress_counts_from_threads_add_up():
    seen = []
    previous = set_progress_sink(lambda label, done, total, finished: seen.append((done, finished)))
    try:
        from concurrent.futures import ThreadPoolExecutor

        with Progress("asking", 400) as progress, ThreadPoolExecutor(8) as pool:
            list(pool.map(lambda _: progress.advance(), range(400)))
    finally:
        set_progress_sink(previous)
    assert seen[0] == (0, False) and seen[-1] == (400, True) and max(d for d, _ in seen) == 400


def test_a_run_shows_its_long_stages_as_log_lines(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(cli, "ProgressDisplay", partial(ProgressDisplay, delay=0.0, interval=0.0))
    assert cli.main(["run", "--inputs", str(INPUTS), "--outputs", str(tmp_path), "--dataset", "story_annotation"]) == 0
    err = _lines(io.StringIO(capsys.readouterr().err))
    assert "evalpipe B1 story_annotation reading ground_truth/: done 3/3" in " ".join(err)
    for model in ("model_a", "model_b"):
        assert any(line.startswith(f"evalpipe B5 story_annotation/{model} scoring documents: done 3/3 in ")
                   for line in err), err


def test_a_loop_of_unknown_length_shows_a_count_on_a_terminal():
    clock, stream = Clock(), io.StringIO()
    previous = set_progress_sink(ProgressDisplay(stream, terminal=True, delay=0.0, interval=0.0, clock=clock))
    try:
        for _ in track(iter(range(600)), "reading q.jsonl"):
            clock.now += 0.01
    finally:
        set_progress_sink(previous)
    frames = stream.getvalue().split("\r\x1b[K")[1:]
    # counted in steps of 256: 0, 256, 512, the last 88, then the closing line
    assert [f.split(" · ")[0] for f in frames] == ["reading q.jsonl 0", "reading q.jsonl 256", "reading q.jsonl 512",
                                                  "reading q.jsonl 600", "reading q.jsonl 600"]
    assert frames[-1].endswith("s\n")
