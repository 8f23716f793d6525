import random

import numpy as np

from stages.core.character_bits import character_bits, may_hold


def _bits_by_hand(text: str) -> int:
    """The bits as the module's docstring defines them, one character at a time."""
    found = 0
    for character in text:
        found |= 1 << (((ord(character) * 2654435761) % 2**32) >> 26)
    return found


ALPHABET = "abcxyzABC019 .。，的是了种子纤维İıß\u0301😀\U0010ffff"


def _random_text(rng: random.Random, longest: int = 12) -> str:
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, longest)))


def test_each_text_holds_the_bits_of_its_characters():
    rng = random.Random(7)
    texts = ["", "a", "ab", "ba", "aab", "\ud800", *(_random_text(rng) for _ in range(500))]
    bits = character_bits(texts)
    assert bits.dtype == np.uint64
    assert [int(value) for value in bits] == [_bits_by_hand(text) for text in texts]
    assert bits[0] == 0 and bin(int(bits[1])).count("1") == 1
    assert bits[2] == bits[3] == bits[4]


def test_a_text_may_hold_every_part_of_it():
    rng = random.Random(11)
    texts = [_random_text(rng, 30) for _ in range(400)]
    parts = []
    for text in texts:
        start = rng.randint(0, len(text))
        parts.append(text[start:rng.randint(start, len(text))])
    assert may_hold(character_bits(texts), character_bits(parts)).all()


def test_a_character_the_text_lacks_rules_the_part_out():
    texts, parts = ["种子表面着生的纤维", "the answer is B", "the answer is B", "abc"], ["水彩画", "B", "D", ""]
    assert may_hold(character_bits(texts), character_bits(parts)).tolist() == [False, True, False, True]
