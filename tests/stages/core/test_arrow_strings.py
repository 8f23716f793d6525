"""Arrow list helpers against plain Python over the same lists."""
import random

import pyarrow as pa
import pytest

from stages.core.arrow_strings import (
    blank_strings,
    is_utf8,
    items_once_per_list,
    list_item_positions,
    list_starts,
    stripped_strings,
)


def _first_equal_within(items: list, index: int, window: int) -> int:
    """The index of the first item equal to items[index] among it and the `window` items before it, following
    each found item further back (what items_once_per_list promises)."""
    while True:
        earlier = [j for j in range(max(0, index - window), index) if items[j] == items[index]]
        if not earlier:
            return index
        index = earlier[0]


@pytest.mark.parametrize("window", [1, 3, 8])
def test_each_item_points_at_the_first_equal_item_of_its_own_list(window):
    rng = random.Random(window)
    lists = [None if rng.random() < 0.05 else [rng.choice(["a", "b", "c", None, "dd"]) for _ in range(rng.randint(0, 20))]
             for _ in range(500)]
    array = pa.array(lists, pa.list_(pa.string())).slice(7)
    once, expand = items_once_per_list(array, window)
    flat, owners = [], []
    for owner, items in enumerate(lists[7:]):
        for index in range(len(items or [])):
            first = _first_equal_within(items, index, window) if items[index] is not None else index
            owners.append(len(flat) - index + first)
            flat.append(items[index])
    assert once.tolist() == sorted(set(owners))
    assert [int(once[position]) for position in expand] == owners


def test_lists_of_one_item_are_all_computed():
    once, expand = items_once_per_list(pa.array([["a"], ["a"], [], None, ["b"]]))
    assert once.tolist() == expand.tolist() == [0, 1, 2]


def test_no_character_after_the_last_space_is_whitespace():
    import sys

    from stages.core.arrow_strings import LAST_SPACE, python_spaces

    assert chr(LAST_SPACE).isspace()
    assert not any(chr(code).isspace() for code in range(LAST_SPACE + 1, sys.maxunicode + 1))
    assert python_spaces() == "".join(chr(code) for code in range(sys.maxunicode + 1) if chr(code).isspace())


def test_each_list_starts_after_the_items_of_the_lists_before_it():
    import numpy as np

    lists = [["a", "b"], [], ["c"], ["d", "e", "f"], []]
    flat_starts, seen = [], 0
    for items in lists:
        flat_starts.append(seen)
        seen += len(items)
    starts = list_starts(np.array([len(items) for items in lists]))
    assert starts.tolist() == flat_starts == [0, 2, 2, 3, 6] and starts.dtype == np.int64
    assert list_starts(np.zeros(0, np.int64)).tolist() == []


def test_the_items_of_chosen_lists_are_found_among_all_items():
    import numpy as np

    lists = [["a", "b"], [], ["c"], ["d", "e", "f"], []]
    flat = [item for items in lists for item in items]
    lengths = np.array([len(items) for items in lists])
    for rows in ([3, 0], [1, 4], [2, 2, 3], []):
        positions = list_item_positions(lengths, np.array(rows, np.int64))
        assert [flat[p] for p in positions] == [item for row in rows for item in lists[row]]


def test_strings_are_stripped_and_found_blank_as_python_strips_them():
    import sys

    spaces = [chr(code) for code in range(sys.maxunicode + 1) if chr(code).isspace()]
    others = ["a", "中", "\u200b", "\ufeff", "_", "-", "\x00"]  # zero-width space and BOM are not whitespace
    rng = random.Random(3)
    texts = [None if rng.random() < 0.03 else "".join(rng.choice(spaces + others) for _ in range(rng.randrange(6)))
             for _ in range(20_000)]
    stripped = stripped_strings(pa.array(texts, pa.string())).to_pylist()
    assert stripped == [None if text is None else text.strip() for text in texts]
    assert sum(text is not None and text != text.strip() for text in texts) > 10_000
    blank = blank_strings(pa.array(texts, pa.string())).to_pylist()
    assert blank == [text is None or not text.strip() for text in texts] and 1_000 < sum(blank) < 19_000


def test_utf8_is_what_python_decodes():
    """Arrow's check agrees with bytes.decode on text cut or spliced anywhere, lone and overlong bytes, surrogates
    and random bytes."""
    rng = random.Random(11)
    text = "Paris 中文 é ñ 😀 ∑ \u3000 İ ı\n".encode()
    cases = [b"", b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", "é".encode("latin-1")]
    cases += [text[:rng.randrange(len(text) + 1)] + text[rng.randrange(len(text)):] for _ in range(500)]
    cases += [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 12))) for _ in range(2000)]
    verdicts = []
    for data in cases:
        try:
            data.decode("utf-8")
            decodes = True
        except UnicodeDecodeError:
            decodes = False
        assert is_utf8(data) == decodes, data
        verdicts.append(decodes)
    assert 100 < sum(verdicts) < len(verdicts) - 100


def test_may_hold_bytes_never_misses_a_string_that_holds_the_bytes():
    from stages.core.arrow_strings import may_hold_bytes

    texts = pa.array(["a<think>b", None, "思考</think>", "plain"])
    assert may_hold_bytes(texts, "<think>".encode())
    assert may_hold_bytes(texts, "</think>".encode())
    assert not may_hold_bytes(texts.slice(3), "<think>".encode())  # a slice searches only its own strings
    assert may_hold_bytes(texts.slice(2, 1), "</think>".encode())
    assert not may_hold_bytes(pa.array([], pa.string()), b"x")
    assert not may_hold_bytes(pa.array([None, None], pa.string()), b"x")
    assert not may_hold_bytes(texts, "[THINK]".encode())
