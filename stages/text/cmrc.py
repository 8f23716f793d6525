"""Chinese reading comprehension as the official CMRC 2018 scorer compares answers (also used for DRCD): lower-cased
text, "mixed segmentation" (each CJK character and each listed punctuation mark a token, other runs tokenized like
NLTK's word tokenizer), F1 from the longest common contiguous run of tokens, EM on punctuation-stripped strings."""
from __future__ import annotations

import re
from functools import lru_cache

# The official list; "……" is two characters and, compared character by character there, never matches.
CMRC_PUNCTUATION = frozenset(["-", ":", "_", "*", "^", "/", "\\", "~", "`", "+", "=", "，", "。", "：", "？", "！",
                              "“", "”", "；", "’", "《", "》", "……", "·", "、", "「", "」", "（", "）", "－", "～",
                              "『", "』"])
_CJK_CHARACTER = re.compile("[\u4e00-\u9fa5]")


def normalize_cmrc(text: str) -> str:
    """The scorer's first step on every answer: lower-case, strip surrounding whitespace."""
    return str(text).lower().strip()


@lru_cache(maxsize=1)
def _word_tokenizer():
    from nltk.tokenize import NLTKWordTokenizer  # the Treebank-style tokenizer of nltk.word_tokenize; no data files

    return NLTKWordTokenizer()


@lru_cache(maxsize=1 << 16)
def _tokenize_run(text: str) -> tuple[str, ...]:
    return tuple(_word_tokenizer().tokenize(text))


def mixed_segmentation(text: str, drop_punctuation: bool = False) -> list[str]:
    """CMRC 2018 tokens: each CJK character (U+4E00–U+9FA5) and listed punctuation mark alone, runs of other
    characters word-tokenized; with `drop_punctuation` the listed marks are skipped (they do not split a run)."""
    tokens: list[str] = []
    run = ""
    for char in normalize_cmrc(text):
        if drop_punctuation and char in CMRC_PUNCTUATION:
            continue
        if char in CMRC_PUNCTUATION or _CJK_CHARACTER.match(char):
            if run:
                tokens.extend(_tokenize_run(run))
                run = ""
            tokens.append(char)
        else:
            run += char
    if run:
        tokens.extend(_tokenize_run(run))
    return tokens


def remove_cmrc_punctuation(text: str) -> str:
    """The answer as EM compares it: lower-cased, stripped, the listed punctuation removed (spaces kept)."""
    return "".join(char for char in normalize_cmrc(text) if char not in CMRC_PUNCTUATION)


def longest_common_run(first: list[str], second: list[str]) -> int:
    """Length of the longest contiguous run of tokens that both sequences contain (dynamic programming over the
    positions where tokens are equal only: answers share few tokens)."""
    positions: dict[str, list[int]] = {}
    for index, token in enumerate(second):
        positions.setdefault(token, []).append(index)
    best = 0
    previous: dict[int, int] = {}
    for token in first:
        current = {}
        for index in positions.get(token, ()):
            length = previous.get(index - 1, 0) + 1
            current[index] = length
            if length > best:
                best = length
        previous = current
    return best


def cmrc_f1(prediction_tokens: list[str], gold_tokens: list[str]) -> float:
    """F1 of one answer pair from their longest common run (0 when nothing is shared)."""
    common = longest_common_run(gold_tokens, prediction_tokens)
    if common == 0:
        return 0.0
    precision, recall = common / len(prediction_tokens), common / len(gold_tokens)
    return 2 * precision * recall / (precision + recall)


def cmrc_em_f1(prediction: str, golds: list[str]) -> tuple[float, float, int]:
    """(EM, F1, index of the gold with the best F1), each the max over gold answers, as the official scorer."""
    if not golds:
        return 0.0, 0.0, 0
    stripped = remove_cmrc_punctuation(prediction)
    em = 1.0 if any(remove_cmrc_punctuation(gold) == stripped for gold in golds) else 0.0
    tokens = mixed_segmentation(prediction, drop_punctuation=True)
    scores = [cmrc_f1(tokens, mixed_segmentation(gold, drop_punctuation=True)) for gold in golds]
    best = max(range(len(golds)), key=scores.__getitem__)
    return em, scores[best], best
