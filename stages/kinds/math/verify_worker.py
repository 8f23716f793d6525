"""The child process that runs math-verify for equivalence.py: it reads one request a line — [gold, [answer, …]] as
JSON — and writes one JSON line per answer; its parent kills it when an answer takes past the time limit. Run as a
script, so it imports math-verify and, from its own folder, numeric_disproof — nothing else of evalpipe."""
import json
import logging
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


def _shown(parsed: list) -> str:
    return str(parsed[0])[:200] if parsed else ""


def main() -> None:
    logging.disable(logging.CRITICAL)  # math-verify warns on every call that its own (signal) time limit is off
    import math_verify.grader as grader
    from math_verify import verify
    from numeric_disproof import with_numeric_disproof

    if hasattr(grader, "sympy_symbolic_eq"):  # math-verify 0.9's last step on plain expressions: skipped when disproved
        grader.sympy_symbolic_eq = with_numeric_disproof(grader.sympy_symbolic_eq)

    out = sys.stdout
    out.write("ready\n")
    out.flush()
    parsed: dict = {}  # golds and answers parse alike: a text seen on either side is parsed once
    for line in sys.stdin:
        gold_text, answer_texts = json.loads(line)
        gold = _parsed(parsed, gold_text)
        for answer_text in answer_texts:
            try:
                answer = _parsed(parsed, answer_text)
                found = {"equal": bool(gold and answer and verify(gold, answer, timeout_seconds=None)),
                         "gold": _shown(gold), "answer": _shown(answer)}
            except Exception as exc:  # noqa: BLE001 - one comparison failing is that answer's verdict, not the run's
                found = {"equal": None, "error": f"{type(exc).__name__}: {exc}"[:200]}
            out.write(json.dumps(found) + "\n")
            out.flush()


if __name__ == "__main__":
    main()
