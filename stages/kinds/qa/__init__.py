"""Open QA: exact match and token F1 per SQuAD v1.1, HotpotQA, CJK and CMRC 2018 rules."""
from .kind import OpenQA
from .scoring import match_normalized, qa_em_f1, token_f1

__all__ = ["OpenQA", "match_normalized", "qa_em_f1", "token_f1"]
