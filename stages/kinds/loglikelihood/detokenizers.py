"""Named detokenizers a rolling task applies to each document before it is asked (`[params] detokenize`): lm-eval's
wikitext task asks of the model the page with WikiText's tokenization undone (its wikitext_detokenizer), while its
words and bytes are still counted on the page as written."""
from __future__ import annotations

import re
from collections.abc import Callable

# WikiText's tokenization undone, step by step in lm-eval 0.4.13's order: (pattern, replacement, is a regex)
WIKITEXT_STEPS: tuple[tuple[str, str, bool], ...] = (
    ("s '", "s'", False),  # a plural's possessive
    (r"/' [0-9]/", r"/'[0-9]/", True),  # lm-eval's own step, kept as it is (it rewrites only the literal /' d/)
    *((f" @{mark}@ ", mark, False) for mark in "-,."),  # number separators: 1 @,@ 000 → 1,000
    *((f" {mark} ", f"{mark} ", False) for mark in ":;.!?,"),  # punctuation keeps only the space after it
    *((rf"{re.escape(o)}\s*([^{re.escape(c)}]*?)\s*{re.escape(c)}", rf"{o}\1{c}", True)
      for o, c in ("()", "[]", "{}", '""', "''")),  # no spaces inside brackets and quotes
    ("= = = =", "====", False),  # headings
    ("= = =", "===", False),
    ("= =", "==", False),
    (" ° ", "°", False),
    (" \n", "\n", False),
    ("\n ", "\n", False),
    (" N ", " 1 ", False),  # WikiText's number placeholder
    (" 's", "'s", False),
)


def wikitext_detokenize(text: str) -> str:
    """A WikiText page as lm-eval's wikitext task asks it (the same string as its wikitext_detokenizer)."""
    for pattern, replacement, regex in WIKITEXT_STEPS:
        text = re.sub(pattern, replacement, text) if regex else text.replace(pattern, replacement)
    return text


DETOKENIZERS: dict[str, Callable[[str], str]] = {"wikitext": wikitext_detokenize}
