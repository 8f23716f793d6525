"""What the instruction checkers count, as IFEval's official code counts it: words (runs of \\w), sentences (NLTK's
Punkt, untrained: the English model is not shipped by any package, so nothing is downloaded), word tokens (NLTK's
Treebank tokenizer per sentence, as word_tokenize) and the language (langdetect, seeded: it is random unless)."""
from __future__ import annotations

import re
from functools import lru_cache

WORD = re.compile(r"\w+")


def count_words(text: str) -> int:
    """Words as the official count_words: runs of word characters."""
    return len(WORD.findall(text))


@lru_cache(maxsize=1)
def _sentence_tokenizer():
    from nltk.tokenize.punkt import PunktSentenceTokenizer

    return PunktSentenceTokenizer()


def sentences(text: str) -> list[str]:
    """The text's sentences by NLTK's Punkt algorithm with its default parameters."""
    return _sentence_tokenizer().tokenize(text)


def count_sentences(text: str) -> int:
    return len(sentences(text))


@lru_cache(maxsize=1)
def _word_tokenizer():
    from nltk.tokenize import NLTKWordTokenizer

    return NLTKWordTokenizer()


def word_tokens(text: str) -> list[str]:
    """Word tokens as NLTK's word_tokenize makes them: each sentence through its Treebank-style tokenizer."""
    tokenizer = _word_tokenizer()
    return [token for sentence in sentences(text) for token in tokenizer.tokenize(sentence)]


@lru_cache(maxsize=1)
def _seeded() -> None:
    from langdetect import DetectorFactory

    DetectorFactory.seed = 0


def detect_language(text: str) -> str | None:
    """The text's language code by langdetect, seeded (the same text always gives the same answer); None when
    langdetect finds no language in it."""
    from langdetect import detect
    from langdetect.lang_detect_exception import LangDetectException

    _seeded()
    try:
        return detect(text)
    except LangDetectException:
        return None
