"""Math-Verify's own regression cases (shared/data/real/math/math_verify_cases.json: gold, pred, expected), read by
path, and the few where evalpipe keeps a different rule on purpose — each with evalpipe's own verdict and why (the
same list is in docs/kinds/math.md)."""
from __future__ import annotations

import json
from pathlib import Path

CASES_FILE = Path(__file__).resolve().parents[4].parent / "shared" / "data" / "real" / "math" / "math_verify_cases.json"

DELIBERATE = {  # (gold, pred) → (evalpipe's verdict, why it differs from `expected`)
    ("1,22", "1.22"): (0, "a gold is read as the contents of a \\boxed{} (MATH's `-2,1` lists two roots), so `1,22` is "
                          "the pair 1, 22; Math-Verify's test reads that gold as a plain number with a decimal comma"),
    ("$9$", "Answer $ \n 9 \n $"): (1, "the reply's last number is 9; Math-Verify's test takes LaTeX only, and an "
                                       "inline $…$ spanning lines is not LaTeX to it (its default parse reads 9 too)"),
    ("$9$", "Answer \\( \n 9 \n \\)"): (1, "as above, with \\( … \\)"),
}


def load_cases() -> list[dict]:
    """The cases in the file's order; none when shared/ is not beside the checkout."""
    return json.loads(CASES_FILE.read_text(encoding="utf-8")) if CASES_FILE.exists() else []


def intended_verdict(case: dict) -> int:
    """evalpipe's verdict for a case: Math-Verify's `expected`, except for the deliberate differences."""
    return DELIBERATE.get((case["gold"], case["pred"]), (case["expected"], ""))[0]
