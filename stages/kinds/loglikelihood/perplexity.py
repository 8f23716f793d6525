"""The figures lm-eval's wikitext task computes from each document's rolling loglikelihood: word_perplexity,
byte_perplexity and bits_per_byte, each weighted over the corpus (the sums of loglikelihoods over the sums of words
or UTF-8 bytes, lm-eval's weighted_perplexity and bits_per_byte aggregations)."""
from __future__ import annotations

import math
import re
from typing import Any

PERPLEXITY_FIGURES = ("word_perplexity", "byte_perplexity", "bits_per_byte")


def word_count(text: str) -> int:
    """Words as lm-eval's wikitext counts them: the pieces of re.split(r"\\s+", text) (edge blanks count as one)."""
    return len(re.split(r"\s+", text))


def byte_count(text: str) -> int:
    return len(text.encode("utf-8"))


def corpus_sums(loglikelihoods: list[float | None], words: list[int], sizes: list[int]) -> dict[str, Any]:
    """The documents, those scored (a None loglikelihood is not), and the scored ones' summed loglikelihood, words
    and bytes."""
    scored = [(ll, w, b) for ll, w, b in zip(loglikelihoods, words, sizes) if ll is not None]
    return {"rows": len(loglikelihoods), "scored": len(scored), "loglikelihood": sum(ll for ll, _, _ in scored),
            "words": sum(w for _, w, _ in scored), "bytes": sum(b for _, _, b in scored)}


def perplexity_figures(sums: dict[str, Any]) -> dict[str, float | None]:
    """word_perplexity = exp(−Σll / Σwords), byte_perplexity = exp(−Σll / Σbytes), bits_per_byte = −Σll / Σbytes /
    ln 2 (None with nothing scored)."""
    total, words, size = sums["loglikelihood"], sums["words"], sums["bytes"]
    if not sums["scored"] or not size:
        return dict.fromkeys(PERPLEXITY_FIGURES)
    return {"word_perplexity": math.exp(-total / words), "byte_perplexity": math.exp(-total / size),
            "bits_per_byte": -total / size / math.log(2)}
