"""The child process that runs math-verify for equivalence.py: it reads one request a line as JSON — [gold, [answer,
…], {text: parse shipped by another checker, …}] to compare, written one line per answer, or {"parse": [text, …]} to
parse, written one line per text — and its parent kills it when a line takes past the time limit. Run as a script, so
it imports math-verify and, from its own folder, numeric_disproof — nothing else of evalpipe."""
import base64
import json
import logging
import pickle
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


def _answer_parse(parsed: dict, texts: list[str]) -> None:
    """Parse each text (kept for this checker's comparisons) and write it pickled for the others, one line a text."""
    for text in texts:
        try:
            found = {"pickle": _shippable(_parsed(parsed, text))}
        except Exception as exc:  # noqa: BLE001 - the comparisons that need this text will fail with it, as before
            found = {"pickle": None, "error": f"{type(exc).__name__}: {exc}"[:200]}
        _write(found)


def _answer_compare(parsed: dict, gold_text: str, answer_texts: list[str], shipped: dict[str, str]) -> None:
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
        _write(found)


def _write(found: dict) -> None:
    sys.stdout.write(json.dumps(found) + "\n")
    sys.stdout.flush()


def main() -> None:
    logging.disable(logging.CRITICAL)  # math-verify warns on every call that its own (signal) time limit is off
    import math_verify.grader as grader
    from numeric_disproof import with_numeric_disproof

    if hasattr(grader, "sympy_symbolic_eq"):  # math-verify 0.9's last step on plain expressions: skipped when disproved
        grader.sympy_symbolic_eq = with_numeric_disproof(grader.sympy_symbolic_eq)

    sys.stdout.write("ready\n")
    sys.stdout.flush()
    parsed: dict = {}  # golds and answers parse alike: a text seen on either side is parsed once
    for line in sys.stdin:
        request = json.loads(line)
        if isinstance(request, dict):
            _answer_parse(parsed, request["parse"])
        else:
            _answer_compare(parsed, *request)


if __name__ == "__main__":
    main()
