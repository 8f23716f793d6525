"""Symbolic equivalence of final answers with math-verify, each comparison under a time limit that holds off the main
thread and inside Luigi workers: math-verify runs in checker processes forked from a warm parent (checker_parent.py,
verify_worker.py), and one that takes past the limit is killed and the comparison is `not compared`."""
from __future__ import annotations

import json
import os
import re
import select
import signal
import threading
from collections import defaultdict, deque
from dataclasses import dataclass
from typing import Any, Callable

from .checker_parent import checker_parent

PAIRS_PER_CHECKER = 200  # a checker parses its first texts slowly: one more only for this many more pairs
PARSE_CHUNK = 8  # texts a checker is given to parse at a time
KILL_WAIT_SECONDS = 10.0  # how long a killed checker is waited for
LATEX_TOKEN = re.compile(r"\\[a-zA-Z]+|[^\w\s]")  # a LaTeX command or a symbol


@dataclass(frozen=True)
class Comparison:
    """One (gold, answer) comparison: equal (None: not compared) and what math-verify read on each side, or why it
    did not compare."""

    equal: bool | None
    gold_read: str = ""
    answer_read: str = ""
    problem: str = ""


class _Checker:
    """One math-verify checker, forked from the warm parent on first use and again after it is killed."""

    def __init__(self) -> None:
        self.pidfd: int | None = None
        self.answers = -1  # the pipe its answers come on
        self.requests: Any = None  # the pipe its requests go to
        self.buffer = b""
        self.holds: set[str] = set()  # texts the child has parsed or been sent

    def start(self, seconds: float) -> None:
        parent = checker_parent(seconds)
        self.pidfd, self.answers, self.requests = parent.fork()
        self.buffer, self.holds = b"", set(parent.held)

    def stop(self) -> None:
        if self.pidfd is not None:
            try:
                signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)
            except ProcessLookupError:
                pass
            select.select([self.pidfd], [], [], KILL_WAIT_SECONDS)  # readable once it has ended
            try:
                self.requests.close()
            except OSError:  # what was left unread in its pipe
                pass
            for fd in (self.answers, self.pidfd):
                os.close(fd)
            self.pidfd = None

    def _line(self, seconds: float) -> bytes | None:
        """The next line the child writes, or None when it writes none within `seconds` or has ended."""
        while b"\n" not in self.buffer:
            ready, _, _ = select.select([self.answers], [], [], seconds)
            if not ready:
                return None
            data = os.read(self.answers, 1 << 16)
            if not data:
                return None
            self.buffer += data
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def compare(self, gold: str, answers: list[str], seconds: float,
                parses: dict[str, str | None] | None = None) -> list[Comparison]:
        """Each answer against the gold, in order; an answer past `seconds` ends the child (it is `not compared`) and
        the answers after it go to a fresh one. Texts this child has not parsed go with their `parses` (pickled by
        another checker) where there is one."""
        found: list[Comparison] = []
        while len(found) < len(answers):
            if self.pidfd is None:
                self.start(seconds)
            left = answers[len(found):]
            texts = {gold, *left} - self.holds
            shipped = {text: parses[text] for text in texts if parses and parses.get(text)}
            try:
                self._send([gold, left, shipped])
            except BrokenPipeError:
                self.stop()
                found.append(Comparison(None, problem="the checker ended"))
                continue
            self.holds |= texts
            for _ in left:
                line = self._line(seconds)
                if line is None:
                    why = "the checker ended" if self._ended() else f"over {seconds:g} s"
                    found.append(Comparison(None, problem=why))
                    break
                reply = json.loads(line)
                found.append(Comparison(reply["equal"], reply.get("gold", ""), reply.get("answer", ""),
                                        reply.get("error", "")))
        return found

    def parse(self, texts: list[str], seconds: float) -> list[str | None | bool]:
        """Each text parsed by this child (kept for its comparisons) and pickled for others: the pickle, None when it
        does not travel, or False when parsing took past `seconds` (the child is ended, the rest go to a fresh one)."""
        found: list[str | None | bool] = []
        while len(found) < len(texts):
            if self.pidfd is None:
                self.start(seconds)
            left = texts[len(found):]
            try:
                self._send({"parse": left})
            except BrokenPipeError:
                self.stop()
                found.append(None)
                continue
            for text in left:
                line = self._line(seconds)
                if line is None:
                    found.append(None if self._ended() else False)
                    break
                self.holds.add(text)
                found.append(json.loads(line)["pickle"])
        return found

    def _send(self, request: object) -> None:
        self.requests.write(json.dumps(request).encode() + b"\n")
        self.requests.flush()

    def _ended(self) -> bool:
        """Stop the child that wrote no line in time; whether it had ended by itself (else it was over the limit)."""
        ended = bool(select.select([self.pidfd], [], [], 0)[0])
        self.stop()
        return ended


class CheckerPool:
    """math-verify checkers kept from one batch of comparisons to the next (each parses its first texts slowly), up
    to `checkers` of them (default: one per core); ended on close (their warm parent stays for the next pool)."""

    def __init__(self, seconds: float, checkers: int | None = None) -> None:
        self.seconds, self.wanted = seconds, checkers or os.cpu_count() or 1
        self.idle: list[_Checker] = []
        self.lock = threading.Lock()
        self.known: dict[tuple[str, str], Comparison] = {}  # compared pairs, asked again by maj@k's grouping
        self.parses: dict[str, str | None | bool] = {}  # text → its pickled parse, None (not sent), False (too slow)

    def __enter__(self) -> CheckerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for checker in self.idle:
            checker.stop()
        self.idle = []

    def compare(self, pairs: list[tuple[str, str]]) -> list[Comparison]:
        """math-verify's verify(parse(gold), parse(answer)) for each (gold, answer) pair — both read as the contents
        of a \\boxed{} — each under the pool's time limit, a gold's pairs on one checker; a pair compared before by
        this pool is not compared again."""
        pending = [pair for pair in dict.fromkeys(pairs) if pair not in self.known]
        found = dict(zip(pending, self._compare_distinct(pending) if pending else []))
        self.known.update((pair, comparison) for pair, comparison in found.items() if comparison.equal is not None)
        return [found.get(pair) or self.known[pair] for pair in pairs]

    def _compare_distinct(self, pairs: list[tuple[str, str]]) -> list[Comparison]:
        by_gold: dict[str, list[int]] = defaultdict(list)
        for index, (gold, _) in enumerate(pairs):
            by_gold[gold].append(index)
        count = max(1, min(self.wanted, len(by_gold), -(-len(pairs) // PAIRS_PER_CHECKER)))
        if count > 1:
            self._parse_once(pairs, count)
        results: list[Comparison | None] = [None] * len(pairs)
        slow = Comparison(None, problem=f"over {self.seconds:g} s")

        def compare_group(checker: _Checker, group: tuple[str, list[int]]) -> None:
            gold, indices = group
            asked = []
            for index in indices:  # a text that took past the limit to parse is not compared with anything
                if self.parses.get(gold) is False or self.parses.get(pairs[index][1]) is False:
                    results[index] = slow
                else:
                    asked.append(index)
            for index, comparison in zip(asked, checker.compare(gold, [pairs[i][1] for i in asked], self.seconds,
                                                                self.parses) if asked else []):
                results[index] = comparison

        unshipped = {gold: [text for text in {gold, *(pairs[i][1] for i in indices)}  # parsed here, did not travel:
                            if self.parses.get(text, "") is None]  # another checker would parse them again
                     for gold, indices in by_gold.items()}
        self._on_checkers(count, list(by_gold.items()), compare_group,
                          suits=lambda checker, group: all(text in checker.holds for text in unshipped[group[0]]))
        return results

    def _parse_once(self, pairs: list[tuple[str, str]], count: int) -> None:
        """Every text not yet parsed by this pool or ahead by the warm parent parsed once, shared out among `count`
        checkers, so that no two checkers parse the same text (math-verify's parsing is most of a comparison's cost)."""
        held = checker_parent(self.seconds).held
        texts = [text for text in dict.fromkeys(text for pair in pairs for text in pair)
                 if text not in self.parses and text not in held]
        texts.sort(key=text_shape)
        chunks = [texts[start:start + PARSE_CHUNK] for start in range(0, len(texts), PARSE_CHUNK)]

        def parse_chunk(checker: _Checker, chunk: list[str]) -> None:
            self.parses.update(zip(chunk, checker.parse(chunk, self.seconds)))

        self._on_checkers(count, chunks, parse_chunk, both_ends=True)

    def _on_checkers(self, count: int, jobs: list, do: Callable[[_Checker, Any], None], both_ends: bool = False,
                     suits: Callable[[_Checker, Any], bool] | None = None) -> None:
        """`do(checker, job)` for every job, on up to `count` checkers at once, each taking the next job when done —
        with `both_ends`, every other checker from the far end of the list, so that neighbouring jobs go to one
        checker; with `suits`, the first job that suits the checker, else the next; the first failure stops the rest
        and is raised here."""
        left = deque(jobs)
        failures: list[BaseException] = []

        def work(from_end: bool) -> None:
            with self.lock:
                checker = self.idle.pop() if self.idle else None
            checker = checker or _Checker()
            suits_this = (lambda job: suits(checker, job)) if suits else None
            try:
                while True:
                    with self.lock:
                        job = next_job(left, from_end, suits_this)
                    if job is None or failures:
                        return
                    do(checker, job)
            except BaseException as exc:  # noqa: BLE001 - re-raised on the calling thread
                failures.append(exc)
                checker.stop()
            finally:
                with self.lock:
                    self.idle.append(checker)

        threads = [threading.Thread(target=work, args=(both_ends and number % 2 == 1,), daemon=True)
                   for number in range(min(count, len(jobs)))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if failures:
            raise failures[0]


def text_shape(text: str) -> tuple[list[str], int]:
    """A text's distinct LaTeX commands and symbols, then its length: texts ANTLR parses alike sort together, so each
    checker's prediction cache fills for its own kinds of text (less CPU than texts split in turn)."""
    return sorted(set(LATEX_TOKEN.findall(text))), len(text)


def compare_answers(pairs: list[tuple[str, str]], seconds: float, checkers: int | None = None) -> list[Comparison]:
    """math-verify's verify(parse(gold), parse(answer)) for each (gold, answer) pair — both read as the contents of a
    \\boxed{} — each under `seconds`, on up to `checkers` child processes (default: one per core)."""
    with CheckerPool(seconds, checkers) as pool:
        return pool.compare(pairs)


def next_job(left: deque, from_end: bool, suits: Callable[[Any], bool] | None = None) -> Any:
    """Take the first job of `left` that `suits` (from the front), else the next one (from the end with `from_end`);
    None when none is left."""
    if not left:
        return None
    if suits is not None:
        for index, job in enumerate(left):
            if suits(job):
                del left[index]
                return job
    return left.pop() if from_end else left.popleft()
