"""Arrow normalization equals the per-row normalizers on the texts where RE2 and Python differ."""
import random
import string

import pyarrow as pa
import pytest

from stages.text.normalize import has_cjk, has_cjk_column, normalize_column, normalize_squad, normalize_squad_column

TRICKY = [
    "The  Denver Broncos!", "don't", "an apple, a pear", "theatre", "", "   ", "\t\n", "A", "the", "An-the",
    "no\u00a0break\u00a0space", "ideographic\u3000space", "line\u2028separator", "x\x1cy\x1fz", "a\x0bthe\x0cB",
    "全角，标点。", "Ｆｕｌｌ－ｗｉｄｔｈ！", "l'an", "éa the é", "ßthe", "İstanbul the", "the—end", "naïve an idea",
    "ctrl\x01a\x7fthe", "tab\tthe\tend", "_the_", "the_", "10,000 the", "北京 the 市",
]


@pytest.mark.parametrize("text", TRICKY)
def test_squad_column_equals_the_official_normalizer(text):
    assert normalize_squad_column(pa.array([text])).to_pylist() == [normalize_squad(text)]


def test_squad_column_on_random_text_and_slices():
    rng = random.Random(16)
    alphabet = string.printable + "éÉ\u00a0\u3000İß中文\u2028\x01\x1d\x7f，。"
    words = ["a", "an", "the", "The", "A.", "an-", "x", "y z", "  ", "\t", "_the_", "the's", "中", "é", "！"]
    texts = (["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30))) for _ in range(3000)]
             + [" ".join(rng.choice(words) for _ in range(rng.randint(0, 8))) for _ in range(3000)] + [None])
    array = pa.array(texts)
    for part in (array, array.slice(13, 4000)):
        expected = [None if text is None else normalize_squad(text) for text in part.to_pylist()]
        assert normalize_squad_column(part).to_pylist() == expected
        assert has_cjk_column(part).to_pylist() == [bool(text) and has_cjk(text) for text in part.to_pylist()]


def test_each_row_takes_its_mode():
    texts = pa.array(["The Cat!", "北京，市。", "The Cat!", None])
    modes = pa.array(["squad", "cjk", "cmrc", "squad"])
    from stages.text.normalize import NORMALIZERS

    assert normalize_column(texts, modes).to_pylist() == [
        NORMALIZERS["squad"]("The Cat!"), NORMALIZERS["cjk"]("北京，市。"), NORMALIZERS["cmrc"]("The Cat!"), None]
