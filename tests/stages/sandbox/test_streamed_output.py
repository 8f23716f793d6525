"""stdout compared as it arrives, in chunks cut anywhere (inside a UTF-8 character, between trailing spaces and
the text after them), gives the verdict of comparing the whole texts; only the start and a digest are kept."""
import hashlib
import random

import pytest

from stages.kinds.code.programs import same_output
from stages.sandbox.streamed_output import StreamedOutput

ALPHABET = ["a", "b", "3", " ", "\t", "\r", "\x0b", "\n", "\u3000", "\xa0", "\x85", "é"]


def _streamed(printed: bytes, expected: str, cuts: list[int], kept: int = 4096) -> StreamedOutput:
    stream = StreamedOutput(expected, kept)
    for start, end in zip([0, *cuts], [*cuts, len(printed)]):
        stream.feed(printed[start:end])
    return stream


@pytest.mark.parametrize("printed, expected, same", [
    ("3\n", "3", True), ("3  \n\n\n", "3\n", True), ("3\r", "3", True), ("3 4\n", "3  4", False),
    ("3\u3000", "3", False), ("3\x85", "3", False), ("3\n\xa0\n", "3", False), (" 3", "3", False),
    ("1\n2", "1\n2\n", True), ("1\n", "1\n2", False), ("1\n2\n3", "1\n2", False), ("", "\n \n", True),
    ("a   b", "a   b", True), ("a     ", "a", True), ("a     b", "a b", False)])
def test_the_rule_of_whole_texts_byte_by_byte(printed, expected, same):
    data = printed.encode()
    assert same_output(printed, expected) is same
    assert _streamed(data, expected, list(range(1, len(data)))).matched() is same


def test_random_texts_cut_anywhere_agree_with_the_whole_comparison():
    generator = random.Random(83)
    for _ in range(3000):
        expected = "".join(generator.choice(ALPHABET) for _ in range(generator.randint(0, 8)))
        printed = expected + generator.choice(["", "\n", "  ", "x", "\n\n "]) if generator.random() < 0.5 else "".join(
            generator.choice(ALPHABET) for _ in range(generator.randint(0, 8)))
        data = printed.encode()
        cuts = sorted(generator.sample(range(len(data) + 1), min(3, len(data) + 1)))
        assert _streamed(data, expected, cuts).matched() is same_output(printed, expected), (printed, expected)


def test_undecodable_bytes_read_as_replacement_characters_and_only_the_start_is_kept():
    printed = b"\xff" * 100_000
    stream = _streamed(printed, "\ufffd" * 100_000, list(range(1, 100_000, 7_777)), kept=64)
    assert stream.matched()
    assert bytes(stream.prefix) == b"\xff" * 64
    assert stream.digest() == hashlib.sha256(printed).hexdigest()
