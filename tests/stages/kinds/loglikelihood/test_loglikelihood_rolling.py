"""Rolling loglikelihoods of whole texts asked of the n-gram server as lm-eval's loglikelihood_rolling asks them, each
checked against the trigram model itself: one window, several windows (each full later window seen after one token of
context), non-ASCII text, the journal; and the corpus figures against sums worked out here."""
import math

import pytest

from stages.kinds.loglikelihood.perplexity import byte_count, corpus_sums, perplexity_figures, word_count
from stages.kinds.loglikelihood.rolling import ask_rolling, rolling_windows
from tests.pipeline.ngram_server import BOS

LONG = "The cat sat on the mat. A man is sitting on a roof and he starts pulling up roofing. " * 3
CAFE = "Élan, café, naïve: 東京 is a city."


def rolling_sum(model, text: str, max_length: int) -> float:
    """The model's sum over the text's tokens: each after the two before it (BOS before the first), except a token
    that opens a full window after the first (at a multiple of max_length − 2 with max_length − 2 tokens from it on),
    which the server sees after BOS and the one token before it."""
    tokens, span, total = model.encode(text), max_length - 2, 0.0
    history = [BOS, BOS, *tokens]
    for i, token in enumerate(tokens):
        a, b = history[i], history[i + 1]
        if i and i % span == 0 and len(tokens) - i >= span:
            a = BOS
        total += model.logprob(a, b, token)
    return total


def test_windows_cover_every_token_once_with_the_prefix_first():
    tokens = list(range(10, 20))
    assert rolling_windows(tokens, 1, 6) == [([1], [10, 11, 12, 13]), ([13], [14, 15, 16, 17]),
                                             ([15, 16, 17], [18, 19])]
    assert rolling_windows(tokens, 1, 5) == [([1], [10, 11, 12]), ([12], [13, 14, 15]), ([15], [16, 17, 18]),
                                             ([16, 17, 18], [19])]
    assert rolling_windows(tokens, 1, 100) == [([1], tokens)]
    assert rolling_windows([], 1, 5) == []


@pytest.mark.parametrize("max_length", [2048, 40, 17])
def test_a_texts_sum_is_the_models_own_over_every_window(server, tmp_path, max_length, completions_config):
    model = server.model
    texts = [LONG, CAFE, "The"]
    assert len(model.encode(LONG)) > 2 * max_length or max_length == 2048
    found = ask_rolling(texts, completions_config(max_length=max_length), "ngram", tmp_path / "j.jsonl")
    for text in texts:
        assert found.found[text] == pytest.approx(rolling_sum(model, text, max_length), abs=1e-9)
    prompts = [p for r in server.requests if r["path"] == "/v1/completions" for p in r["body"]["prompt"]]
    assert all(len(p) <= max_length - 1 for p in prompts) and prompts[0][0] == BOS
    assert found.windows == sum(math.ceil(len(model.encode(text)) / (max_length - 2)) for text in texts)
    assert found.windows > 3 or max_length == 2048


def test_a_rerun_asks_nothing_and_another_max_length_asks_again(server, tmp_path, completions_config):
    journal = tmp_path / "j.jsonl"
    first = ask_rolling([CAFE, LONG], completions_config(max_length=30), "ngram", journal)
    asked = len(server.requests)
    again = ask_rolling([LONG, CAFE, CAFE], completions_config(max_length=30), "ngram", journal)
    assert again.asked == 0 and again.found == first.found and len(server.requests) == asked
    assert ask_rolling([CAFE], completions_config(max_length=31), "ngram", journal).asked == 1


def test_corpus_figures_are_weighted_over_words_and_bytes():
    texts = ["a b  c", " café\n", "東京"]  # words 3, 3 (edge blanks count), 1; bytes 6, 7, 6
    words, sizes = [word_count(t) for t in texts], [byte_count(t) for t in texts]
    assert (words, sizes) == ([3, 3, 1], [6, 7, 6])
    sums = corpus_sums([-3.0, -5.0, -4.0], words, sizes)
    assert sums == {"rows": 3, "scored": 3, "loglikelihood": -12.0, "words": 7, "bytes": 19}
    figures = perplexity_figures(sums)
    assert figures["word_perplexity"] == pytest.approx(math.exp(12 / 7))
    assert figures["byte_perplexity"] == pytest.approx(math.exp(12 / 19))
    assert figures["bits_per_byte"] == pytest.approx(12 / 19 / math.log(2))
    assert corpus_sums([None, -5.0], words[:2], sizes[:2]) == {"rows": 2, "scored": 1, "loglikelihood": -5.0,
                                                                "words": 3, "bytes": 7}
    assert perplexity_figures(corpus_sums([None], [1], [1]))["bits_per_byte"] is None
