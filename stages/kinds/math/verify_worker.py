"""The warm parent of equivalence.py's checkers: it imports math-verify, parses the texts it is given ahead (filling
ANTLR's prediction caches and its own parse cache) until the first checker is asked for, then forks each checker
with both. Its control socket (fd in argv) carries one JSON request a line — {"warm": [text, …]}, {"stop": true}
(answered {"parsed": n}: the first n warm texts were parsed) or {"fork": true} with the checker's two pipe ends
(answered with the checker's pidfd). A checker reads [gold, [answer, …], {text: parse shipped by another checker, …}]
to compare, written one line per answer, or {"parse": [text, …]}, written one line per text; its parent process
(equivalence.py) kills it when a line takes past the time limit. Run as a script, so it imports math-verify and, from
its own folder, numeric_disproof — nothing else of evalpipe."""
import base64
import json
import logging
import os
import pickle
import select
import socket
import sys

PARSED_CACHE = 100_000  # parsed texts kept between requests (a gold and its repeated answers parse once)


def _parsed(cache: dict, text: str) -> list:
    from math_verify import parse

    found = cache.get(text)
    if found is None:
        if len(cache) >= PARSED_CACHE:
            cache.clear()
        found = cache[text] = parse("\\boxed{" + text + "}", parsing_timeout=None)
    return found


def _shippable(found: list) -> str | None:
    """The parse pickled (base64) for another checker, or None when unpickling would not give the same objects back
    (sympy re-evaluates unevaluated expressions on load, which changes what math-verify compares)."""
    from sympy import srepr

    data = pickle.dumps(found)
    again = pickle.loads(data)
    same = len(again) == len(found) and all(
        type(one) is type(two) and (one == two if isinstance(one, str) else srepr(one) == srepr(two))
        for one, two in zip(found, again))
    return base64.b64encode(data).decode("ascii") if same else None


def _shown(parsed: list) -> str:
    return str(parsed[0])[:200] if parsed else ""


def _answer_parse(parsed: dict, texts: list[str], out) -> None:
    """Parse each text (kept for this checker's comparisons) and write it pickled for the others, one line a text."""
    for text in texts:
        try:
            found = {"pickle": _shippable(_parsed(parsed, text))}
        except Exception as exc:  # noqa: BLE001 - the comparisons that need this text will fail with it, as before
            found = {"pickle": None, "error": f"{type(exc).__name__}: {exc}"[:200]}
        _write(out, found)


def _answer_compare(parsed: dict, gold_text: str, answer_texts: list[str], shipped: dict[str, str], out) -> None:
    """Each answer against the gold, one line an answer; `shipped` parses (from other checkers) are taken as parsed."""
    from math_verify import verify

    if len(parsed) + len(shipped) > PARSED_CACHE:
        parsed.clear()
    for text, data in shipped.items():
        parsed.setdefault(text, pickle.loads(base64.b64decode(data)))
    gold = _parsed(parsed, gold_text)
    for answer_text in answer_texts:
        try:
            answer = _parsed(parsed, answer_text)
            found = {"equal": bool(gold and answer and verify(gold, answer, timeout_seconds=None)),
                     "gold": _shown(gold), "answer": _shown(answer)}
        except Exception as exc:  # noqa: BLE001 - one comparison failing is that answer's verdict, not the run's
            found = {"equal": None, "error": f"{type(exc).__name__}: {exc}"[:200]}
        _write(out, found)


def _write(out, found: dict) -> None:
    out.write(json.dumps(found).encode() + b"\n")
    out.flush()


def _check(parsed: dict, requests, out) -> None:
    """A checker's life: its requests answered until its parent closes them."""
    for line in requests:
        request = json.loads(line)
        if isinstance(request, dict):
            _answer_parse(parsed, request["parse"], out)
        else:
            _answer_compare(parsed, *request, out)


def _fork_checker(control: socket.socket, ends: list[int], parsed: dict) -> None:
    """Fork a checker on the first two pipe ends of `ends` (its requests, its answers; any others are a later
    checker's) and send its pidfd back."""
    while True:  # checkers that have ended are reaped here (each one's pidfd was sent at its fork)
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0:
                break
        except ChildProcessError:
            break
    pid = os.fork()
    if pid == 0:
        try:
            os.setsid()  # a session of its own: the scheduler shares the CPU between sessions, not processes
            control.close()
            for end in ends[2:]:
                os.close(end)
            _check(parsed, os.fdopen(ends[0], "rb"), os.fdopen(ends[1], "wb"))
        finally:
            os._exit(0)
    for end in ends[:2]:
        os.close(end)
    pidfd = os.pidfd_open(pid)
    socket.send_fds(control, [b"{}\n"], [pidfd])
    os.close(pidfd)


def _serve(control: socket.socket) -> None:
    """Parse warm texts while no request waits; answer requests until the control socket closes."""
    parsed: dict = {}  # golds and answers parse alike: a text seen on either side is parsed once
    warm: list[str] = []
    done, warming, buffer, ends = 0, True, b"", []
    while True:
        while b"\n" not in buffer:
            if warming and done < len(warm) and not select.select([control], [], [], 0)[0]:
                try:
                    _parsed(parsed, warm[done])
                except Exception:  # noqa: BLE001 - a checker meets the same error where it compares the text
                    pass
                done += 1
                continue
            data, fds, _, _ = socket.recv_fds(control, 1 << 16, 2)
            if not data:
                return
            buffer, ends = buffer + data, ends + fds
        line, _, buffer = buffer.partition(b"\n")
        request = json.loads(line)
        if "warm" in request:
            warm.extend(request["warm"])
            continue
        warming = False
        if "stop" in request:
            control.sendall(json.dumps({"parsed": done}).encode() + b"\n")
        else:
            _fork_checker(control, ends, parsed)
            ends = ends[2:]


def main() -> None:
    logging.disable(logging.CRITICAL)  # math-verify warns on every call that its own (signal) time limit is off
    import math_verify.grader as grader
    from numeric_disproof import with_numeric_disproof, with_set_disproof

    if hasattr(grader, "sympy_symbolic_eq"):  # math-verify 0.9's last step on plain expressions: skipped when disproved
        grader.sympy_symbolic_eq = with_numeric_disproof(grader.sympy_symbolic_eq)
    if hasattr(grader, "sympy_compare_sets"):  # its symmetric difference of two sets: skipped when they differ by value
        grader.sympy_compare_sets = with_set_disproof(grader.sympy_compare_sets)

    control = socket.socket(fileno=int(sys.argv[1]))
    control.sendall(b"ready\n")
    _serve(control)
    while True:  # its checkers reaped as they end (each ends when its parent process closes its requests)
        try:
            os.wait()
        except ChildProcessError:
            break
    sys.stderr.flush()
    os._exit(0)  # no interpreter teardown (sympy's modules and caches: a tenth of a second the run would wait for)


if __name__ == "__main__":
    main()
